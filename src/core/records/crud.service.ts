import { BadRequestException, Inject, Injectable, NotFoundException, OnApplicationBootstrap } from '@nestjs/common';
import { CountCache } from '../cache/count-cache';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Db, Queryable } from '../database/db';
import { constraintMessage } from '../database/constraint-messages';
import { constraintViolation, PgError } from '../database/db-errors';
import { encodeCursor } from '../query/cursor';
import { Depth, parseBoolean } from '../query/parse-params';
import { EventRecorder } from '../events/event-recorder';
import { recordEvent } from '../events/record-events';
import { IdempotencyRequest, IdempotencyStore } from '../idempotency/idempotency.store';
import { KeyRing } from '../security/keys';
import { CollectionCatalog, CollectionMeta } from '../model/collection-meta';
import { Criterion, findDuplicatesOf, MAX_DUPLICATES, resolveCriteria } from './duplicates';
import { Counter, findPage, PageInfo, parseListQuery } from './find-many';
import { checkIfMatch, etagOf, IfMatch } from '../rest/preconditions';
import { ApiRecord } from '../repository/record-codec';
import { RecordCodecs } from '../repository/record-codecs';
import { RelationLoader } from './relation-loader';
import { parseShape, project, RawQuery, readParams, ROUTE_PARAMS } from '../rest/request-params';
import { RecordWriter, RequestActor } from '../repository/record-writer';

export interface ListResult {
  records: ApiRecord[];
  pageInfo: PageInfo;
  totalCount: number | null;
}

/** How totalCount is computed (`Prefer: count=...`): exact (default), the planner's estimate, or not at all (null). */
export type CountMode = 'exact' | 'estimated' | 'none';

/** What a create answers: the response body, the record's ETag (create one), and whether it is a replay. */
export interface CreateAnswer {
  body: unknown;
  etag?: string;
  replayed: boolean;
}

export interface CreateRequest {
  /** Create many: constraint errors name the index of the offending record. */
  indexed: boolean;
  /** Builds the response body from the created records. */
  envelope: (records: ApiRecord[]) => unknown;
  /** The request's Idempotency-Key, if it sent one. */
  idempotency?: IdempotencyRequest;
}

/** A record with its version (ETag). */
export interface VersionedRecord {
  record: ApiRecord;
  etag: string;
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
export class CrudService implements OnApplicationBootstrap {
  private readonly relations: RelationLoader;
  private readonly writer: RecordWriter;
  private readonly criteria = new Map<CollectionMeta, Criterion[]>();

  constructor(
    private readonly db: Db,
    private readonly catalog: CollectionCatalog,
    private readonly codecs: RecordCodecs,
    private readonly keys: KeyRing,
    private readonly events: EventRecorder,
    private readonly idempotency: IdempotencyStore,
    private readonly counts: CountCache,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.relations = new RelationLoader(catalog, codecs, config.relationLimit);
    this.writer = new RecordWriter(codecs);
    for (const meta of catalog.all()) this.criteria.set(meta, resolveCriteria(meta));
  }

  /** A process that starts may follow one that died between a commit and its count-version change. */
  async onApplicationBootstrap(): Promise<void> {
    await this.counts.changed(this.catalog.all().map((m) => m.plural));
  }

  /**
   * Runs a write transaction, then (committed, before the response) marks the counts of the
   * collections it touched as changed: its own, and the audit log and timeline its events write;
   * a hard delete may clear or delete rows of any collection that points at it.
   */
  private async write<T>(meta: CollectionMeta, work: (tx: Queryable) => Promise<T>, everything = false): Promise<T> {
    const result = await this.db.transaction(work);
    const touched = everything ? this.catalog.all().map((m) => m.plural) : [meta.plural, 'auditLogs', 'timelineActivities'];
    await this.counts.changed(touched);
    return result;
  }

  private counter(meta: CollectionMeta, mode: CountMode): Counter {
    switch (mode) {
      case 'none':
        return async () => null;
      case 'estimated':
        return async (where, values) => {
          const [row] = await this.db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
            `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${meta.sqlTable} ${where}`,
            values,
          );
          return Math.round(row['QUERY PLAN'][0].Plan['Plan Rows']);
        };
      default:
        return (where, values) =>
          this.counts.count(meta.plural, `${where}\u0000${JSON.stringify(values)}`, async () => {
            const [row] = await this.db.query<{ count: number }>(`SELECT count(*) AS count FROM ${meta.sqlTable} ${where}`, values);
            return row.count;
          });
    }
  }

  meta(plural: string): CollectionMeta {
    return this.catalog.require(plural);
  }

  private async shape(db: Queryable, meta: CollectionMeta, rows: Record<string, unknown>[], depth: Depth, fields?: string[]) {
    const records = rows.map((row) => this.codecs.of(meta).toRecord(row));
    await this.relations.attach(db, meta, records, depth, fields);
    return project(records, fields);
  }

  async findMany(meta: CollectionMeta, raw: RawQuery, countMode: CountMode = 'exact'): Promise<ListResult> {
    const limits = { pageSizeDefault: this.config.pageSizeDefault, pageSizeMax: this.config.pageSizeMax, maxFilterDepth: this.config.maxFilterDepth };
    const query = parseListQuery(meta, raw, limits, this.keys.cursorKey);
    const page = await findPage(this.db, meta, query, this.keys.cursorKey, this.counter(meta, countMode));
    const records = await this.shape(this.db, meta, page.rows, query.depth, query.fields);
    return { records, pageInfo: page.pageInfo, totalCount: page.totalCount };
  }

  async findOne(meta: CollectionMeta, id: string, raw: RawQuery): Promise<VersionedRecord> {
    const shape = parseShape(meta, readParams(raw, ROUTE_PARAMS.findOne));
    const rows = await this.db.query(
      `SELECT ${meta.selectList} FROM ${meta.sqlTable} WHERE "id" = $1 AND "deletedAt" IS NULL`,
      [id],
      `${meta.plural}.findOne`,
    );
    if (rows.length === 0) throw new NotFoundException('Record not found');
    return { record: (await this.shape(this.db, meta, rows, shape.depth, shape.fields))[0], etag: etagOf(rows[0]) };
  }

  /**
   * Creates records atomically, in input order (inputs are validated DTO values, optional `id`).
   * With an idempotency key, the key is claimed first in the same transaction: a repeated request
   * gets the first answer back and writes nothing.
   */
  async create(meta: CollectionMeta, inputs: Record<string, unknown>[], raw: RawQuery, actor: RequestActor, request: CreateRequest): Promise<CreateAnswer> {
    const shape = parseShape(meta, readParams(raw, ROUTE_PARAMS.write));
    const { idempotency } = request;
    try {
      return await this.write(meta, async (tx) => {
        const replay = idempotency && (await this.idempotency.claim(tx, idempotency));
        if (replay) return { body: replay.body, replayed: true };
        const { rows, extras } = await this.writer.insert(tx, meta, inputs, actor);
        const codec = this.codecs.of(meta);
        await this.events.record(tx, rows.map((row) => recordEvent(meta, 'created', undefined, codec.toRecord(row))), actor);
        const shaped = await this.shape(tx, meta, rows, shape.depth);
        const body = request.envelope(shaped.map((record, i) => ({ ...record, ...extras[i] })));
        if (idempotency) await this.idempotency.complete(tx, idempotency, { status: 201, body });
        return { body, etag: rows.length === 1 ? etagOf(rows[0]) : undefined, replayed: false };
      });
    } catch (error) {
      throw request.indexed ? this.explainBatchError(meta, error, inputs) : error;
    }
  }

  /** Creates records atomically and returns them (for internal callers). */
  async createMany(meta: CollectionMeta, inputs: Record<string, unknown>[], raw: RawQuery, actor: RequestActor): Promise<ApiRecord[]> {
    const { body } = await this.create(meta, inputs, raw, actor, { indexed: false, envelope: (records) => records });
    return body as ApiRecord[];
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

  /**
   * Partial update: only the fields in `input` change (last write wins, field by field).
   * With `ifMatch`, the locked current row must match it, else 412 and nothing changes.
   */
  async updateOne(
    meta: CollectionMeta,
    id: string,
    input: Record<string, unknown>,
    raw: RawQuery,
    actor: RequestActor,
    ifMatch?: IfMatch,
  ): Promise<VersionedRecord> {
    const shape = parseShape(meta, readParams(raw, ROUTE_PARAMS.write));
    return this.write(meta, async (tx) => {
      const rows = await this.writer.update(tx, meta, id, input, ifMatch && ((before) => checkIfMatch(ifMatch, before)));
      if (!rows) throw new NotFoundException('Record not found');
      if (rows.after) {
        const codec = this.codecs.of(meta);
        await this.events.record(tx, [recordEvent(meta, 'updated', codec.toRecord(rows.before), codec.toRecord(rows.after))], actor);
      }
      const row = rows.after ?? rows.before;
      return { record: (await this.shape(tx, meta, [row], shape.depth))[0], etag: etagOf(row) };
    });
  }

  /** Hard delete (returns `{id}`), or soft delete with `soft_delete=true` (returns the record). */
  async deleteOne(meta: CollectionMeta, id: string, raw: RawQuery, actor: RequestActor, ifMatch?: IfMatch): Promise<ApiRecord> {
    const soft = parseBoolean('soft_delete', readParams(raw, ROUTE_PARAMS.delete).soft_delete);
    return this.write(meta, async (tx) => {
      if (ifMatch) {
        const current = await this.writer.lock(tx, meta, id, soft);
        if (!current) throw new NotFoundException('Record not found');
        checkIfMatch(ifMatch, current);
      }
      const row = soft
        ? await this.writer.setDeletedAt(tx, meta, id, 'now()', '"deletedAt" IS NULL')
        : await this.writer.destroy(tx, meta, id);
      if (!row) throw new NotFoundException('Record not found');
      const record = this.codecs.of(meta).toRecord(row);
      // a soft delete changed deletedAt only: the record before is the same with deletedAt unset
      const before = soft ? { ...record, deletedAt: null } : record;
      await this.events.record(tx, [recordEvent(meta, soft ? 'deleted' : 'destroyed', before, soft ? record : undefined)], actor);
      return soft ? record : { id: row.id };
    }, !soft);
  }

  /** Undoes a soft delete; restoring a live record changes nothing and returns it. */
  async restoreOne(meta: CollectionMeta, id: string, raw: RawQuery, actor: RequestActor): Promise<VersionedRecord> {
    const shape = parseShape(meta, readParams(raw, ROUTE_PARAMS.write));
    return this.write(meta, async (tx) => {
      let row = await this.writer.setDeletedAt(tx, meta, id, 'NULL', '"deletedAt" IS NOT NULL');
      if (row) await this.events.record(tx, [recordEvent(meta, 'restored', undefined, this.codecs.of(meta).toRecord(row))], actor);
      if (!row) {
        [row] = await tx.query(`SELECT ${meta.selectList} FROM ${meta.sqlTable} WHERE "id" = $1`, [id]);
        if (!row) throw new NotFoundException('Record not found');
      }
      return { record: (await this.shape(tx, meta, [row], shape.depth))[0], etag: etagOf(row) };
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
