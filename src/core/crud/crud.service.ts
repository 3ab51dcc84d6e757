import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Db, Queryable } from '../database/db';
import { constraintMessage } from '../errors/constraint-messages';
import { constraintViolation, PgError } from '../errors/db-errors';
import { encodeCursor } from '../query/cursor';
import { Depth, parseBoolean } from '../query/parse-params';
import { EventRecorder } from '../events/event-recorder';
import { recordEvent } from '../events/record-events';
import { KeyRing } from '../security/keys';
import { CollectionCatalog, CollectionMeta } from './collection-meta';
import { Criterion, findDuplicatesOf, MAX_DUPLICATES, resolveCriteria } from './duplicates';
import { findPage, PageInfo, parseListQuery } from './find-many';
import { ApiRecord } from './record-codec';
import { RecordCodecs } from './record-codecs';
import { RelationLoader } from './relation-loader';
import { parseShape, project, RawQuery, readParams, ROUTE_PARAMS } from './request-params';
import { RecordWriter, RequestActor } from './record-writer';

export interface ListResult {
  records: ApiRecord[];
  pageInfo: PageInfo;
  totalCount: number;
}

export interface DuplicatesResult {
  totalCount: number;
  pageInfo: PageInfo;
  records: ApiRecord[];
}

/** Body of find-duplicates after validation: exactly one of the two. */
export type DuplicatesInput = { data: Record<string, unknown>[] } | { ids: string[] };

/**
 * The one generic service behind every collection's controller. It works on CollectionMeta
 * (computed once per collection) and sends SQL through Db: reads are single statements,
 * every write runs in one transaction.
 */
@Injectable()
export class CrudService {
  private readonly relations: RelationLoader;
  private readonly writer: RecordWriter;
  private readonly criteria = new Map<CollectionMeta, Criterion[]>();

  constructor(
    private readonly db: Db,
    private readonly catalog: CollectionCatalog,
    private readonly codecs: RecordCodecs,
    private readonly keys: KeyRing,
    private readonly events: EventRecorder,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.relations = new RelationLoader(catalog, codecs, config.relationLimit);
    this.writer = new RecordWriter(codecs);
    for (const meta of catalog.all()) this.criteria.set(meta, resolveCriteria(meta));
  }

  meta(plural: string): CollectionMeta {
    return this.catalog.require(plural);
  }

  private async shape(db: Queryable, meta: CollectionMeta, rows: Record<string, unknown>[], depth: Depth, fields?: string[]) {
    const records = rows.map((row) => this.codecs.of(meta).toRecord(row));
    await this.relations.attach(db, meta, records, depth, fields);
    return project(records, fields);
  }

  async findMany(meta: CollectionMeta, raw: RawQuery): Promise<ListResult> {
    const limits = { pageSizeDefault: this.config.pageSizeDefault, pageSizeMax: this.config.pageSizeMax, maxFilterDepth: this.config.maxFilterDepth };
    const query = parseListQuery(meta, raw, limits, this.keys.cursorKey);
    const page = await findPage(this.db, meta, query, this.keys.cursorKey);
    const records = await this.shape(this.db, meta, page.rows, query.depth, query.fields);
    return { records, pageInfo: page.pageInfo, totalCount: page.totalCount };
  }

  async findOne(meta: CollectionMeta, id: string, raw: RawQuery): Promise<ApiRecord> {
    const shape = parseShape(meta, readParams(raw, ROUTE_PARAMS.findOne));
    const rows = await this.db.query(
      `SELECT ${meta.selectList} FROM ${meta.sqlTable} WHERE "id" = $1 AND "deletedAt" IS NULL`,
      [id],
    );
    if (rows.length === 0) throw new NotFoundException('Record not found');
    return (await this.shape(this.db, meta, rows, shape.depth, shape.fields))[0];
  }

  /**
   * Creates records atomically, in input order. Inputs are validated DTO values (optional `id`).
   * With `indexed` (create many), constraint errors name the index of the offending record.
   */
  async createMany(
    meta: CollectionMeta,
    inputs: Record<string, unknown>[],
    raw: RawQuery,
    actor: RequestActor,
    indexed = false,
  ): Promise<ApiRecord[]> {
    const shape = parseShape(meta, readParams(raw, ROUTE_PARAMS.write));
    try {
      return await this.db.transaction(async (tx) => {
        const { rows, extras } = await this.writer.insert(tx, meta, inputs, actor);
        const codec = this.codecs.of(meta);
        await this.events.record(tx, rows.map((row) => recordEvent(meta, 'created', undefined, codec.toRecord(row))), actor);
        const records = await this.shape(tx, meta, rows, shape.depth);
        return records.map((record, i) => ({ ...record, ...extras[i] }));
      });
    } catch (error) {
      throw indexed ? this.explainBatchError(meta, error, inputs) : error;
    }
  }

  /** Names the records a constraint violation concerns (`[3] emails.primaryEmail ...`). */
  private explainBatchError(meta: CollectionMeta, error: unknown, inputs: Record<string, unknown>[]): unknown {
    const violation = constraintViolation(error as PgError);
    const path = violation?.column ? meta.pathOfColumn(violation.column) : undefined;
    if (!violation || violation.value === undefined || !path) return error;
    const [name, sub] = path.split('.');
    const indexes = inputs
      .map((input, i) => {
        const value = sub ? (input[name] as Record<string, unknown> | undefined)?.[sub] : input[name];
        return String(value) === violation.value ? i : -1;
      })
      .filter((i) => i >= 0);
    if (indexes.length === 0) return error;
    const message = constraintMessage(violation, this.catalog);
    return new BadRequestException(indexes.map((i) => `[${i}] ${message}`));
  }

  async updateOne(meta: CollectionMeta, id: string, input: Record<string, unknown>, raw: RawQuery, actor: RequestActor): Promise<ApiRecord> {
    const shape = parseShape(meta, readParams(raw, ROUTE_PARAMS.write));
    return this.db.transaction(async (tx) => {
      const rows = await this.writer.update(tx, meta, id, input);
      if (!rows) throw new NotFoundException('Record not found');
      if (rows.after) {
        const codec = this.codecs.of(meta);
        await this.events.record(tx, [recordEvent(meta, 'updated', codec.toRecord(rows.before), codec.toRecord(rows.after))], actor);
      }
      return (await this.shape(tx, meta, [rows.after ?? rows.before], shape.depth))[0];
    });
  }

  /** Hard delete (returns `{id}`), or soft delete with `soft_delete=true` (returns the record). */
  async deleteOne(meta: CollectionMeta, id: string, raw: RawQuery, actor: RequestActor): Promise<ApiRecord> {
    const soft = parseBoolean('soft_delete', readParams(raw, ROUTE_PARAMS.delete).soft_delete);
    return this.db.transaction(async (tx) => {
      const row = soft
        ? await this.writer.setDeletedAt(tx, meta, id, 'now()', '"deletedAt" IS NULL')
        : await this.writer.destroy(tx, meta, id);
      if (!row) throw new NotFoundException('Record not found');
      const record = this.codecs.of(meta).toRecord(row);
      // a soft delete changed deletedAt only: the record before is the same with deletedAt unset
      const before = soft ? { ...record, deletedAt: null } : record;
      await this.events.record(tx, [recordEvent(meta, soft ? 'deleted' : 'destroyed', before, soft ? record : undefined)], actor);
      return soft ? record : { id: row.id };
    });
  }

  /** Undoes a soft delete; restoring a live record changes nothing and returns it. */
  async restoreOne(meta: CollectionMeta, id: string, raw: RawQuery, actor: RequestActor): Promise<ApiRecord> {
    const shape = parseShape(meta, readParams(raw, ROUTE_PARAMS.write));
    return this.db.transaction(async (tx) => {
      let row = await this.writer.setDeletedAt(tx, meta, id, 'NULL', '"deletedAt" IS NOT NULL');
      if (row) await this.events.record(tx, [recordEvent(meta, 'restored', undefined, this.codecs.of(meta).toRecord(row))], actor);
      if (!row) {
        [row] = await tx.query(`SELECT ${meta.selectList} FROM ${meta.sqlTable} WHERE "id" = $1`, [id]);
        if (!row) throw new NotFoundException('Record not found');
      }
      return (await this.shape(tx, meta, [row], shape.depth))[0];
    });
  }

  async findDuplicates(meta: CollectionMeta, input: DuplicatesInput, raw: RawQuery): Promise<DuplicatesResult[]> {
    const { depth } = parseShape(meta, readParams(raw, ROUTE_PARAMS.duplicates));
    let subjects: { record: ApiRecord; selfId?: string }[];
    if ('ids' in input) {
      if (input.ids.length === 0) return [];
      const rows = await this.db.query(
        `SELECT ${meta.selectList} FROM ${meta.sqlTable} WHERE "id" = ANY($1::uuid[]) AND "deletedAt" IS NULL`,
        [input.ids],
      );
      const byId = new Map(rows.map((r) => [r.id as string, this.codecs.of(meta).toRecord(r)]));
      subjects = input.ids.filter((id) => byId.has(id)).map((id) => ({ record: byId.get(id)!, selfId: id }));
    } else {
      subjects = input.data.map((record) => ({ record }));
    }
    const criteria = this.criteria.get(meta)!;
    const matches = await Promise.all(
      subjects.map((s) => findDuplicatesOf(this.db, meta, criteria, s.record, s.selfId)),
    );
    const records = await this.shape(this.db, meta, matches.flatMap((m) => m.rows), depth);
    let offset = 0;
    return matches.map((match) => {
      const found = records.slice(offset, offset + match.rows.length);
      offset += match.rows.length;
      const cursor = (record: ApiRecord) => encodeCursor(this.keys.cursorKey, { s: 'id:AL', v: [record.id] });
      return {
        totalCount: match.totalCount,
        pageInfo: {
          hasNextPage: match.totalCount > MAX_DUPLICATES,
          hasPreviousPage: false,
          startCursor: found.length ? cursor(found[0]) : null,
          endCursor: found.length ? cursor(found[found.length - 1]) : null,
        },
        records: found,
      };
    });
  }
}
