import { Queryable } from '../database/db';
import { q } from '../database/sql';
import { Row } from '../model/record';
import { SqlParams } from '../query/apply-query';
import { recordJsonSql } from './record-json';
import { RecordRepository } from './record-repository';

/**
 * The set-based statements of one collection (bulk updates, deletes and restores, upserts,
 * merges): each touches any number of records in one statement, by a compiled condition or by
 * a list of ids. Beside RecordRepository, the other statement owner of the same table.
 */
export class BulkStatements {
  private readonly table: string;
  private readonly selectList: string;

  constructor(private readonly repository: RecordRepository) {
    this.table = repository.table;
    this.selectList = repository.selectList;
  }

  /** One `GROUP BY` over the rows matching `where`: `select` from the compiler, grouped by its first `dimensions` expressions. */
  aggregate(
    db: Queryable,
    clause: { select: string[]; dimensions: number; where: string; orderBy: string; limit: number; values: unknown[] },
  ): Promise<Row[]> {
    const groupBy = clause.dimensions
      ? ` GROUP BY ${Array.from({ length: clause.dimensions }, (_, i) => i + 1).join(', ')}`
      : '';
    return db.query(
      `SELECT ${clause.select.join(', ')} FROM ${this.table} WHERE ${clause.where}${groupBy} ORDER BY ${clause.orderBy} LIMIT ${clause.limit}`,
      clause.values,
    );
  }

  /** The first `perGroup` rows (by id) of every group of `dimensions` among the rows matching `where`, each with its group values `g0..`. */
  samples(
    db: Queryable,
    clause: { dimensions: string[]; where: string; values: unknown[]; perGroup: number },
  ): Promise<Row[]> {
    const groups = clause.dimensions.map((sql, i) => `${sql} AS "g${i}"`);
    const partition = clause.dimensions.length ? `PARTITION BY ${clause.dimensions.join(', ')} ` : '';
    return db.query(
      `SELECT * FROM (SELECT ${[this.selectList, ...groups].join(', ')}, row_number() OVER (${partition}ORDER BY "id") AS "__n" ` +
        `FROM ${this.table} WHERE ${clause.where}) s WHERE "__n" <= ${clause.perGroup} ORDER BY "id"`,
      clause.values,
    );
  }

  /** Ids of the rows matching a compiled condition, locked for the transaction, by id, at most `limit`. */
  async lockMatching(tx: Queryable, where: string, values: unknown[], limit: number): Promise<string[]> {
    const rows = await tx.query<{ id: string }>(
      `SELECT "id" FROM ${this.table} WHERE ${where} ORDER BY "id" LIMIT ${limit} FOR UPDATE`,
      values,
    );
    return rows.map((row) => row.id);
  }

  /** Rows matching a compiled condition, locked for the transaction, by id, at most `limit`. */
  lockRows(tx: Queryable, where: string, values: unknown[], limit: number): Promise<Row[]> {
    return tx.query(
      `SELECT ${this.selectList} FROM ${this.table} WHERE ${where} ORDER BY "id" LIMIT ${limit} FOR UPDATE`,
      values,
    );
  }

  /** The records of `ids` (live or not), by id. */
  findByIds(tx: Queryable, ids: string[]): Promise<Row[]> {
    return tx.query(`SELECT ${this.selectList} FROM ${this.table} WHERE "id" = ANY($1::uuid[]) ORDER BY "id"`, [ids]);
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

  // CTEs of set-based writes whose events PostgreSQL computes from their rows (the events bus
  // composes the statement): `ids` is the placeholder of a uuid[] parameter.

  /** The names of the columns of a record, as the CTEs below return them. */
  get columnNames(): string {
    return this.repository.columnNames;
  }

  /** The event copy (JSON, depth 0) of a row `alias` of this table or of a CTE of its columns. */
  recordJson(alias: string): string {
    return recordJsonSql(this.repository.meta, alias);
  }

  /**
   * `SELECT "id", <record JSON> AS "json"` of the records of `ids` as they are before the
   * statement; `live`: not soft-deleted; `lock`: locked (FOR UPDATE: the latest version of each).
   */
  jsonOfIds(ids: string, options: { live?: boolean; lock?: boolean } = {}): string {
    const live = options.live ? ` AND t."deletedAt" IS NULL` : '';
    return `SELECT t."id", ${this.recordJson('t')} AS "json" FROM ${this.table} t WHERE t."id" = ANY(${ids}::uuid[])${live}${options.lock ? ' FOR UPDATE' : ''}`;
  }

  /**
   * `SELECT "id", <record JSON> AS "json"` of the rows matching a compiled condition (on the
   * unaliased table), locked (FOR UPDATE) in id order, at most `limit`: the matches of a bulk
   * update found, locked and copied in the statement that changes them.
   */
  jsonMatching(where: string, limit: number): string {
    return `SELECT "id", ${this.recordJson(this.table)} AS "json" FROM ${this.table} WHERE ${where} ORDER BY "id" LIMIT ${limit} FOR UPDATE`;
  }

  /** The columns of the records of `ids` as they are before the statement. */
  rowsOfIds(ids: string): string {
    return `SELECT ${this.selectList} FROM ${this.table} WHERE "id" = ANY(${ids}::uuid[])`;
  }

  /**
   * Sets the same columns (and `updatedAt`) on the records of `from`, a relation with an `id`
   * column (one row per record), RETURNING their columns and `returning` (columns of `from`).
   */
  updateJoined(
    from: string,
    columns: string[],
    values: unknown[],
    params: SqlParams,
    returning: string,
    guard?: string,
  ): string {
    const sets = columns
      .map((c, i) => `${q(c)} = ${params.add(values[i])}`)
      .concat('"updatedAt" = now()')
      .join(', ');
    const own = this.selectList.replace(/(^|, )"/g, '$1t."');
    return `UPDATE ${this.table} t SET ${sets} FROM ${from} WHERE t."id" = ${from}."id"${guard ? ` AND ${guard}` : ''} RETURNING ${own}, ${returning}`;
  }

  /** Soft-deletes the live ones (or restores the soft-deleted ones) among `ids`, RETURNING their columns. */
  setDeletedIds(ids: string, deleted: boolean): string {
    const change = deleted
      ? `"deletedAt" = now() WHERE "deletedAt" IS NULL`
      : `"deletedAt" = NULL WHERE "deletedAt" IS NOT NULL`;
    return `UPDATE ${this.table} SET ${change} AND "id" = ANY(${ids}::uuid[]) RETURNING ${this.selectList}`;
  }

  /** Hard-deletes the records of `ids` (foreign keys clear or cascade), RETURNING their columns. */
  destroyIds(ids: string): string {
    return `DELETE FROM ${this.table} WHERE "id" = ANY(${ids}::uuid[]) RETURNING ${this.selectList}`;
  }

  /** Soft-deletes (live ones) or restores (soft-deleted ones) the records of `ids`; the rows that changed. */
  setDeletedByIds(tx: Queryable, ids: string[], deleted: boolean): Promise<Row[]> {
    return tx.query(this.setDeletedIds('$1', deleted), [ids]);
  }

  /**
   * Records (live or soft-deleted) whose id is one of `ids` or whose unique column holds one of
   * the given values, locked for the transaction: the candidates of an upsert.
   */
  lockByKeys(tx: Queryable, ids: string[], keys: { column: string; values: string[] }[]): Promise<Row[]> {
    const values: unknown[] = [ids];
    const conditions = ['"id" = ANY($1::uuid[])'];
    for (const key of keys) {
      values.push(key.values);
      conditions.push(`${q(key.column)} = ANY($${values.length}::text[])`);
    }
    return tx.query(`SELECT ${this.selectList} FROM ${this.table} WHERE ${conditions.join(' OR ')} FOR UPDATE`, values);
  }

  /**
   * Updates records each with its own set of columns (PATCH semantics per record) in one
   * statement: `changes` are `{id, set: [columns sent], <column>: value}`; a soft-deleted record
   * is restored; `updatedAt` moves only for a record that changed. Rows after.
   */
  patchEach(tx: Queryable, columns: string[], changes: Record<string, unknown>[]): Promise<Row[]> {
    const types = ['"__id" uuid', '"__set" text[]', ...columns.map((c) => `${q(c)} ${this.repository.sqlType(c)}`)];
    const next = columns.map(
      (c) => `CASE WHEN '${c.replace(/'/g, "''")}' = ANY(r."__set") THEN r.${q(c)} ELSE t.${q(c)} END`,
    );
    const changed = columns.length
      ? `t."deletedAt" IS NOT NULL OR (${columns.map((c) => `t.${q(c)}`).join(', ')}, NULL) IS DISTINCT FROM (${next.join(', ')}, NULL)`
      : 't."deletedAt" IS NOT NULL';
    const sets = [
      ...columns.map((c, i) => `${q(c)} = ${next[i]}`),
      `"updatedAt" = CASE WHEN ${changed} THEN now() ELSE t."updatedAt" END`,
      `"deletedAt" = NULL`,
    ];
    return tx.query(
      `UPDATE ${this.table} AS t SET ${sets.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${types.join(', ')}) ` +
        `WHERE t."id" = r."__id" RETURNING ${this.selectList.replace(/(^|, )"/g, '$1t."')}`,
      [JSON.stringify(changes)],
    );
  }

  /**
   * Points `joinColumn` of every record (live or not) that points at one of `fromIds` to `toId`;
   * rows after, each with the id it pointed at before in `__before`.
   */
  repoint(tx: Queryable, joinColumn: string, fromIds: string[], toId: string): Promise<Row[]> {
    const column = q(joinColumn);
    return tx.query(
      `UPDATE ${this.table} AS t SET ${column} = $1, "updatedAt" = now() ` +
        `FROM (SELECT "id" AS "__id", ${column} AS "__before" FROM ${this.table} WHERE ${column} = ANY($2::uuid[]) FOR UPDATE) o ` +
        `WHERE t."id" = o."__id" RETURNING ${this.selectList.replace(/(^|, )"/g, '$1t."')}, o."__before"`,
      [toId, fromIds],
    );
  }
}
