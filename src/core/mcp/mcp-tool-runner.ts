import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { QueryError } from '../errors/query-error';
import { isUuid } from '../fields/field-rules';
import { idempotencyRequest, parseIdempotencyKey } from '../idempotency/idempotency.store';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor } from '../model/record';
import { parseBulkQuery } from '../query/bulk-query';
import { parseGroupByQuery } from '../query/group-by-query';
import { parseListQuery } from '../query/list-query';
import { parseShape } from '../query/record-shape';
import { parseSearchQuery } from '../query/search-query';
import { RecordBulkWrites } from '../records/bulk-writes';
import { RecordGroups } from '../records/record-groups';
import { RecordReads } from '../records/record-reads';
import { RecordSearch } from '../records/record-search';
import { RecordUpserts } from '../records/record-upserts';
import { RecordWrites } from '../records/record-writes';
import { KeyRing } from '../security/keys';
import { badRequest, validateRecord, validateRecordArray } from '../validation/record-body';
import { collectionSummary, describeCollection } from './collection-description';
import { ToolArguments } from './tool-arguments';

type Result = Record<string, unknown>;

/**
 * Runs the MCP tools through the services and parsers of the REST routes (no second
 * implementation): the same validation and messages, transactions, events, idempotency.
 * Errors are thrown as the REST routes throw them; the server turns them into tool errors.
 */
@Injectable()
export class McpToolRunner {
  constructor(
    private readonly catalog: CollectionCatalog,
    private readonly reads: RecordReads,
    private readonly writes: RecordWrites,
    private readonly upserts: RecordUpserts,
    private readonly bulk: RecordBulkWrites,
    private readonly groups: RecordGroups,
    private readonly searches: RecordSearch,
    private readonly keys: KeyRing,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private collection(args: ToolArguments): CollectionMeta {
    const name = args.string('collection', true);
    const meta = this.catalog.get(name);
    if (!meta) throw new QueryError(`object '${name}' not found. eg: companies`);
    return meta;
  }

  private id(args: ToolArguments): string {
    const id = args.string('id', true);
    if (!isUuid(id)) throw new QueryError(`'${id}' is not a valid UUID`);
    return id.toLowerCase();
  }

  /** `id` or `filter`, exactly one. */
  private target(args: ToolArguments): 'id' | 'filter' {
    if (args.has('id') === args.has('filter')) throw new QueryError('Give exactly one of id and filter');
    return args.has('id') ? 'id' : 'filter';
  }

  async run(tool: string, raw: unknown, actor: RequestActor): Promise<Result> {
    switch (tool) {
      case 'list_collections':
        new ToolArguments(raw, []);
        return { collections: this.catalog.all().map(collectionSummary) };
      case 'describe_collection':
        return describeCollection(this.collection(new ToolArguments(raw, ['collection'])));
      case 'find_records': {
        const args = new ToolArguments(raw, ['collection', 'filter', 'order_by', 'limit', 'cursor', 'fields', 'depth']);
        const meta = this.collection(args);
        const query = parseListQuery(
          meta,
          {
            filter: args.string('filter'),
            order_by: args.string('order_by'),
            limit: args.integerText('limit'),
            starting_after: args.string('cursor'),
            fields: args.namesText('fields'),
            depth: args.integerText('depth'),
          },
          this.config,
          this.keys.cursorKey,
        );
        const { records, pageInfo, totalCount } = await this.reads.findMany(meta, query);
        return { records, pageInfo, totalCount };
      }
      case 'get_record': {
        const args = new ToolArguments(raw, ['collection', 'id', 'depth', 'fields']);
        const meta = this.collection(args);
        const { record } = await this.reads.findOne(
          meta,
          this.id(args),
          parseShape(meta, { depth: args.integerText('depth'), fields: args.namesText('fields') }),
        );
        return { record };
      }
      case 'create_records':
        return this.create(new ToolArguments(raw, ['collection', 'records', 'upsert', 'idempotencyKey']), actor);
      case 'update_records': {
        const args = new ToolArguments(raw, ['collection', 'data', 'id', 'filter']);
        const meta = this.collection(args);
        const data = validateRecord(meta.def.update, args.raw('data'), false, this.config.maxBodyDepth);
        if (!data.ok) throw badRequest(data.messages);
        if (this.target(args) === 'id')
          return {
            records: [(await this.writes.updateOne(meta, this.id(args), data.value, { depth: 0 }, actor)).record],
          };
        return {
          records: await this.bulk.updateMany(
            meta,
            parseBulkQuery(meta, { filter: args.string('filter'), depth: '0' }, this.config.maxFilterDepth),
            data.value,
            actor,
          ),
        };
      }
      case 'delete_records': {
        const args = new ToolArguments(raw, ['collection', 'id', 'filter', 'soft']);
        const meta = this.collection(args);
        const soft = args.boolean('soft');
        if (this.target(args) === 'id')
          return { records: [await this.writes.deleteOne(meta, this.id(args), soft, actor)] };
        return {
          records: await this.bulk.deleteMany(
            meta,
            parseBulkQuery(meta, { filter: args.string('filter'), depth: '0' }, this.config.maxFilterDepth),
            soft,
            actor,
          ),
        };
      }
      case 'search_records': {
        const args = new ToolArguments(raw, ['query', 'objects', 'limit', 'cursor']);
        const query = parseSearchQuery(
          this.catalog,
          {
            query: args.string('query', true),
            objects: args.namesText('objects'),
            limit: args.integerText('limit'),
            starting_after: args.string('cursor'),
          },
          this.keys.cursorKey,
        );
        const { results, pageInfo } = await this.searches.search(query);
        return { results, pageInfo };
      }
      case 'group_by': {
        const args = new ToolArguments(raw, [
          'collection',
          'group_by',
          'aggregate',
          'filter',
          'order_by',
          'limit',
          'timezone',
        ]);
        const meta = this.collection(args);
        const query = parseGroupByQuery(
          meta,
          {
            group_by: args.jsonText('group_by'),
            aggregate: args.jsonText('aggregate'),
            filter: args.string('filter'),
            order_by: args.jsonText('order_by'),
            limit: args.integerText('limit'),
            timezone: args.string('timezone'),
          },
          this.config.maxFilterDepth,
        );
        return { groups: await this.groups.groupBy(meta, query) };
      }
      default:
        throw new QueryError(`Unknown tool '${tool}'`);
    }
  }

  private async create(args: ToolArguments, actor: RequestActor): Promise<Result> {
    const meta = this.collection(args);
    const upsert = args.boolean('upsert');
    const records = validateRecordArray(
      upsert ? meta.def.update : meta.def.create,
      args.raw('records'),
      this.config.batchMax,
      this.config.maxBodyDepth,
    );
    const idempotency = idempotencyRequest(
      parseIdempotencyKey(args.string('idempotencyKey')),
      actor.apiKeyId,
      `mcp create_records ${meta.plural}`,
      upsert,
      records,
    );
    const options = { indexed: true, idempotency };
    const result = upsert
      ? await this.upserts.upsert(meta, records, { depth: 0 }, actor, options)
      : await this.writes.create(meta, records, { depth: 0 }, actor, options);
    return { records: result.records };
  }
}
