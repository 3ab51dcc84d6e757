import { Inject, Injectable } from '@nestjs/common';
import { requireAction } from '../access/access-checks';
import { refuseUnwritable } from '../access/field-access';
import { canRead } from '../model/readable-fields';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { QueryError } from '../errors/query-error';
import { isUuid } from '../fields/field-rules';
import { parseIdempotencyKey } from '../idempotency/idempotency.store';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor } from '../model/record';
import { parseBulkQuery } from '../query/bulk-query';
import { parseGroupByQuery } from '../query/group-by-query';
import { parseListQuery } from '../query/list-query';
import { parseShape } from '../query/record-shape';
import { parseSearchQuery } from '../query/search-query';
import { RecordSearch } from '../records/record-search';
import { RecordServices } from '../records/record-services';
import { routeNamed } from '../routes/route-paths';
import { KeyRing } from '../security/keys';
import { badRequest, validateRecord, validateRecordArray } from '../validation/record-body';
import { collectionSummary, describeCollection } from './collection-description';
import { ToolArguments } from './tool-arguments';

type Result = Record<string, unknown>;

/**
 * Runs the MCP tools through the services and parsers of the REST routes (no second
 * implementation): the same validation and messages, access checks, transactions, events,
 * idempotency. Each tool on a collection needs the actions of the route it runs (the route
 * table's), as the REST route does. Errors are thrown as the REST routes throw them; the server
 * turns them into tool errors.
 */
@Injectable()
export class McpToolRunner {
  constructor(
    private readonly catalog: CollectionCatalog,
    private readonly records: RecordServices,
    private readonly searches: RecordSearch,
    private readonly keys: KeyRing,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The tool's collection, once the key is known to be allowed the actions of `route` on it. */
  private collection(args: ToolArguments, actor: RequestActor, route: string): CollectionMeta {
    const name = args.string('collection', true);
    const meta = this.catalog.get(name);
    if (!meta) throw new QueryError(`object '${name}' not found. eg: companies`);
    for (const action of routeNamed(route).actions) requireAction(actor.access, meta.plural, action);
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

  private bulk(meta: CollectionMeta, args: ToolArguments, actor: RequestActor) {
    const params = { filter: args.string('filter'), depth: '0' };
    return parseBulkQuery(meta, params, this.config.maxFilterDepth, actor.access);
  }

  async run(tool: string, raw: unknown, actor: RequestActor): Promise<Result> {
    const { access } = actor;
    switch (tool) {
      case 'list_collections':
        new ToolArguments(raw, []);
        return {
          collections: this.catalog
            .all()
            .filter((m) => canRead(access, m.plural))
            .map(collectionSummary),
        };
      case 'describe_collection':
        return describeCollection(this.collection(new ToolArguments(raw, ['collection']), actor, 'findOne'), access);
      case 'find_records': {
        const args = new ToolArguments(raw, ['collection', 'filter', 'order_by', 'limit', 'cursor', 'fields', 'depth']);
        const meta = this.collection(args, actor, 'findMany');
        const params = {
          filter: args.string('filter'),
          order_by: args.string('order_by'),
          limit: args.integerText('limit'),
          starting_after: args.string('cursor'),
          fields: args.namesText('fields'),
          depth: args.integerText('depth'),
        };
        const query = parseListQuery(meta, params, this.config, this.keys.cursorKey, access);
        const { records, pageInfo, count } = await this.records.reads.findMany(meta, query, access);
        return { records, pageInfo, totalCount: count.totalCount };
      }
      case 'get_record': {
        const args = new ToolArguments(raw, ['collection', 'id', 'depth', 'fields']);
        const meta = this.collection(args, actor, 'findOne');
        const shape = parseShape(meta, { depth: args.integerText('depth'), fields: args.namesText('fields') }, access);
        return { record: (await this.records.reads.findOne(meta, this.id(args), shape, access)).record };
      }
      case 'create_records':
        return this.create(new ToolArguments(raw, ['collection', 'records', 'upsert', 'idempotencyKey']), actor);
      case 'update_records': {
        const args = new ToolArguments(raw, ['collection', 'data', 'id', 'filter']);
        const byId = this.target(args) === 'id';
        const meta = this.collection(args, actor, byId ? 'updateOne' : 'updateMany');
        refuseUnwritable(actor.access, meta.plural, args.raw('data'), false);
        const data = validateRecord(meta.def.update, args.raw('data'), false, this.config.maxBodyDepth);
        if (!data.ok) throw badRequest(data.messages);
        if (byId)
          return {
            records: [
              (await this.records.writes.updateOne(meta, this.id(args), data.value, { depth: 0 }, actor)).record,
            ],
          };
        return { records: await this.records.bulk.updateMany(meta, this.bulk(meta, args, actor), data.value, actor) };
      }
      case 'delete_records': {
        const args = new ToolArguments(raw, ['collection', 'id', 'filter', 'soft']);
        const byId = this.target(args) === 'id';
        const meta = this.collection(args, actor, byId ? 'deleteOne' : 'deleteMany');
        const soft = args.boolean('soft');
        if (byId) return { records: [await this.records.writes.deleteOne(meta, this.id(args), soft, actor)] };
        return { records: await this.records.bulk.deleteMany(meta, this.bulk(meta, args, actor), soft, actor) };
      }
      case 'search_records': {
        const args = new ToolArguments(raw, ['query', 'objects', 'limit', 'cursor']);
        const params = {
          query: args.string('query', true),
          objects: args.namesText('objects'),
          limit: args.integerText('limit'),
          starting_after: args.string('cursor'),
        };
        const query = parseSearchQuery(this.catalog, params, this.keys.cursorKey, access);
        const { results, pageInfo } = await this.searches.search(query, access);
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
        const meta = this.collection(args, actor, 'groupBy');
        const params = {
          group_by: args.jsonText('group_by'),
          aggregate: args.jsonText('aggregate'),
          filter: args.string('filter'),
          order_by: args.jsonText('order_by'),
          limit: args.integerText('limit'),
          timezone: args.string('timezone'),
        };
        const query = parseGroupByQuery(meta, params, this.config.maxFilterDepth, access);
        return { groups: await this.records.groups.groupBy(meta, query, access) };
      }
      default:
        throw new QueryError(`Unknown tool '${tool}'`);
    }
  }

  private async create(args: ToolArguments, actor: RequestActor): Promise<Result> {
    const meta = this.collection(args, actor, 'createMany');
    const upsert = args.boolean('upsert');
    refuseUnwritable(actor.access, meta.plural, args.raw('records'), true);
    const records = validateRecordArray(
      upsert ? meta.def.update : meta.def.create,
      args.raw('records'),
      this.config.batchMax,
      this.config.maxBodyDepth,
    );
    const idempotencyKey = parseIdempotencyKey(args.string('idempotencyKey'));
    const scope = `mcp create_records ${meta.plural}`;
    const input = { records, upsert };
    const result = await this.records.createOrUpsert(meta, scope, input, { depth: 0 }, actor, {
      idempotencyKey,
      indexed: true,
    });
    return { records: result.records };
  }
}
