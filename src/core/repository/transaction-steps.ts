import { ForbiddenException } from '@nestjs/common';
import { Queryable } from '../database/db';
import { MAX_PARAMS, q, valuesList } from '../database/sql';
import { Row } from '../model/record';
import { LIVE, RecordScope, whereSql } from '../query/filter-sql';
import type { ResolvedFilter } from '../model/checked-filter';
import { SqlParams } from '../query/sql-params';
import { EventfulWrite, eventfulStatementSql } from './eventful-write';
import { RowScope, scoped } from './row-scope';
import { patchSql } from './patch-statements';
import { TableSql } from './table-sql';

/** The records of a bulk write: those a checked filter matches among the records of a scope. */
export interface FilterTarget {
  filter: ResolvedFilter;
  scope: RecordScope;
}

/**
 * The statements of a write transaction of several steps on one collection's table: finding and
 * locking its records, serializing on key values, sizing its memory, and the writes whose events
 * are computed in Node and recorded by the event bus afterwards (creates too large for one
 * statement, the per-record patches of upserts, the re-pointing and the survivor of a merge).
 */
export class TransactionSteps {
  private readonly named: string;

  /** `scope`: the rows of the key it is built for (it finds and locks only them). */
  constructor(
    readonly table: TableSql,
    readonly scope?: RowScope,
  ) {
    this.named = scope ? `${table.meta.plural}.${scope.id}` : table.meta.plural;
  }

  private where(target: FilterTarget, params: SqlParams): string {
    const where = whereSql(this.table.meta, target.filter, target.scope, params);
    return this.scope ? `${where} AND ${this.scope.sql(params)}` : where;
  }

  /**
   * 403 (the transaction rolls back) when a record among `ids` written by this transaction's
   * steps (an upsert's creates and patches) falls outside the key's rows.
   */
  async requireInScope(tx: Queryable, ids: string[]): Promise<void> {
    if ((await this.outsideScope(tx, ids)).size > 0) throw new ForbiddenException(this.scope!.forbidden);
  }

  /** Those of `ids` (records written or matched by this transaction) outside the key's rows (none without a scope). */
  async outsideScope(tx: Queryable, ids: string[]): Promise<Set<string>> {
    if (!this.scope || ids.length === 0) return new Set();
    const params = new SqlParams(1);
    const sql = `SELECT "id" FROM ${this.table.name} WHERE "id" = ANY($1::uuid[]) AND (${this.scope.sql(params)}) IS NOT TRUE`;
    return new Set((await tx.query<{ id: string }>(sql, [ids, ...params.values])).map((row) => row.id));
  }

  /** Ids of the records of `target`, locked for the transaction, by id, at most `limit`. */
  async lockMatching(tx: Queryable, target: FilterTarget, limit: number): Promise<string[]> {
    const params = new SqlParams();
    const where = this.where(target, params);
    const rows = await tx.query<{ id: string }>(
      `SELECT "id" FROM ${this.table.name} WHERE ${where} ORDER BY "id" LIMIT ${limit} FOR UPDATE`,
      params.values,
    );
    return rows.map((row) => row.id);
  }

  /** How many records `target` covers. */
  async countMatching(tx: Queryable, target: FilterTarget): Promise<number> {
    const params = new SqlParams();
    const where = this.where(target, params);
    const [row] = await tx.query<{ count: number }>(
      `SELECT count(*) AS count FROM ${this.table.name}${where ? ` WHERE ${where}` : ''}`,
      params.values,
    );
    return row.count;
  }

  /** The live records among `ids`, locked for the transaction, by id. */
  lockLive(tx: Queryable, ids: string[]): Promise<Row[]> {
    const { where, values } = scoped(this.scope, `"id" = ANY($1::uuid[]) AND ${LIVE}`, [ids]);
    return tx.query(
      `SELECT ${this.table.selectList} FROM ${this.table.name} WHERE ${where} ORDER BY "id" LIMIT ${ids.length} FOR UPDATE`,
      values,
    );
  }

  /** A live record, locked for the rest of the transaction when `lock` (a named statement). */
  async findLiveForWrite(tx: Queryable, id: string, lock: boolean): Promise<Row | undefined> {
    const suffix = lock ? ' FOR UPDATE' : '';
    const { where, values } = scoped(this.scope, `"id" = $1 AND ${LIVE}`, [id]);
    const [row] = await tx.query(
      `SELECT ${this.table.selectList} FROM ${this.table.name} WHERE ${where}${suffix}`,
      values,
      `${this.named}.before${lock ? 'Locked' : ''}`,
    );
    return row;
  }

  /** Locks a record (live only, or any when `liveOnly` is false) and returns its row. */
  async lockOne(tx: Queryable, id: string, liveOnly: boolean): Promise<Row | undefined> {
    const { where, values } = scoped(this.scope, `"id" = $1${liveOnly ? ` AND ${LIVE}` : ''}`, [id]);
    const [row] = await tx.query(
      `SELECT ${this.table.selectList} FROM ${this.table.name} WHERE ${where} FOR UPDATE`,
      values,
    );
    return row;
  }

  /** The records of `ids` (live or not), by id. */
  findByIds(tx: Queryable, ids: string[]): Promise<Row[]> {
    return tx.query(
      `SELECT ${this.table.selectList} FROM ${this.table.name} WHERE "id" = ANY($1::uuid[]) ORDER BY "id"`,
      [ids],
    );
  }

  /**
   * Records (live or soft-deleted) whose id is one of `ids` or whose unique column holds one of
   * the given values, locked for the transaction: the candidates of an upsert. `keys`: only their
   * id, deletedAt and key columns (what matching needs).
   */
  lockByKeys(
    tx: Queryable,
    ids: string[],
    keys: { column: string; values: string[] }[],
    read: 'records' | 'keys' = 'records',
  ): Promise<Row[]> {
    const values: unknown[] = [ids];
    const conditions = ['"id" = ANY($1::uuid[])'];
    for (const key of keys) {
      values.push(key.values);
      conditions.push(`${q(key.column)} = ANY($${values.length}::text[])`);
    }
    const any = conditions.join(' OR ');
    const scope = this.scope ? scoped(this.scope, `(${any})`, values) : { where: any, values };
    const columns =
      read === 'records'
        ? this.table.selectList
        : ['id', 'deletedAt', ...keys.map((key) => key.column)].map(q).join(', ');
    return tx.query(`SELECT ${columns} FROM ${this.table.name} WHERE ${scope.where} FOR UPDATE`, scope.values);
  }

  /** Takes transaction-scoped advisory locks on 64-bit keys, in one order (so two writers never deadlock). */
  async advisoryLocks(tx: Queryable, keys: string[]): Promise<void> {
    await tx.query('SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT unnest($1::int8[]) AS k ORDER BY 1) AS keys', [
      [...keys].sort(),
    ]);
  }

  /**
   * Memory for the sorts and CTEs of a set-based write of `records` records, for the rest of the
   * transaction: about 8 kB per record (its copies before and after, its diff), so that 10,000
   * records are handled in memory instead of temporary files (PostgreSQL's default is 4 MB).
   */
  async reserveMemory(tx: Queryable, records: number): Promise<void> {
    const megabytes = Math.min(256, Math.ceil(4 + (records * 8) / 1024));
    if (records >= 500) await tx.query(`SET LOCAL work_mem = '${megabytes}MB'`);
  }

  /** Inserts rows of `columns` in as few statements as the parameter bound allows (a create too large for one), in input order. */
  async insertMany(tx: Queryable, columns: string[], tuples: unknown[][]): Promise<Row[]> {
    const rowsPerStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
    const returned = new Map<unknown, Row>();
    for (let start = 0; start < tuples.length; start += rowsPerStatement) {
      const values: unknown[] = [];
      const rows = valuesList(tuples.slice(start, start + rowsPerStatement), values);
      const sql = `INSERT INTO ${this.table.name} (${columns.map(q).join(', ')}) VALUES ${rows} RETURNING ${this.table.selectList}`;
      for (const row of await tx.query(sql, values)) returned.set(row.id, row);
    }
    return tuples.map((tuple) => returned.get(tuple[columns.indexOf('id')])!);
  }

  /** Updates records each with its own set of columns in one statement (patchSql); rows after. */
  patchEach(tx: Queryable, columns: string[], changes: Record<string, unknown>[]): Promise<Row[]> {
    return tx.query(patchSql(this.table, columns, 'write'), [JSON.stringify(changes)]);
  }

  /** Without writing: the `id` of each record `patchEach` would patch and whether it would change (`__changed`). */
  previewPatch(tx: Queryable, columns: string[], changes: Record<string, unknown>[]): Promise<Row[]> {
    return tx.query(patchSql(this.table, columns, 'preview'), [JSON.stringify(changes)]);
  }

  /** Runs a write without recording its events (a check that is rolled back); its answer. */
  writeWithoutEvents(tx: Queryable, write: EventfulWrite): Promise<Row[]> {
    return tx.query(eventfulStatementSql(write, [], []), write.params.values);
  }

  /**
   * Points `joinColumn` of every record (live or not) that points at one of `fromIds` to `toId`;
   * rows after, each with the id it pointed at before in `__before`.
   */
  repoint(tx: Queryable, joinColumn: string, fromIds: string[], toId: string): Promise<Row[]> {
    const column = q(joinColumn);
    return tx.query(
      `UPDATE ${this.table.name} AS t SET ${column} = $1, "updatedAt" = now() ` +
        `FROM (SELECT "id" AS "__id", ${column} AS "__before" FROM ${this.table.name} WHERE ${column} = ANY($2::uuid[]) FOR UPDATE) o ` +
        `WHERE t."id" = o."__id" RETURNING ${this.table.selectListOfT}, o."__before"`,
      [toId, fromIds],
    );
  }

  /** Soft-deletes the live records among `ids`; their rows after. */
  softDeleteByIds(tx: Queryable, ids: string[]): Promise<Row[]> {
    return tx.query(
      `UPDATE ${this.table.name} SET "deletedAt" = now() WHERE "deletedAt" IS NULL AND "id" = ANY($1::uuid[]) RETURNING ${this.table.selectList}`,
      [ids],
    );
  }

  /** Sets the given columns of one record (and `updatedAt`); returns the row after. */
  async updateOne(tx: Queryable, id: string, columns: string[], values: unknown[]): Promise<Row | undefined> {
    const sets = columns.map((c, i) => `${q(c)} = $${i + 2}`);
    const [row] = await tx.query(
      `UPDATE ${this.table.name} SET ${sets.join(', ')}, "updatedAt" = now() WHERE "id" = $1 RETURNING ${this.table.selectList}`,
      [id, ...values],
    );
    return row;
  }
}
