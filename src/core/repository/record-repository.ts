import { Queryable } from '../database/db';
import { q } from '../database/sql';
import { Row } from '../model/record';
import { LIVE } from '../query/filter-sql';
import { ListStatement } from '../query/list-sql';
import { recordJsonSql } from './record-json';
import { RowScope, scoped } from './row-scope';
import { TableSql } from './table-sql';

/**
 * The reads of one collection's table: every SELECT a request makes of it, from the collection's
 * metadata, values only as bound parameters. Conditions and orders come compiled from the query
 * layer (`src/core/query`). Writes are in write-statements.ts, the reads a write transaction makes
 * (locks) in transaction-steps.ts. Built for a key with a row filter, every statement is limited
 * to its rows.
 */
export class RecordRepository {
  private readonly named: string;

  /** `scope`: the rows of the key it is built for (every statement is limited to them). */
  constructor(
    readonly table: TableSql,
    readonly scope?: RowScope,
  ) {
    this.named = scope ? `${table.meta.plural}.${scope.id}` : table.meta.plural;
  }

  /** A live record by id (a named statement: parsed once per connection). */
  async findLive(db: Queryable, id: string): Promise<Row | undefined> {
    const { where, values } = scoped(this.scope, `"id" = $1 AND ${LIVE}`, [id]);
    const [row] = await db.query(
      `SELECT ${this.table.selectList} FROM ${this.table.name} WHERE ${where}`,
      values,
      `${this.named}.findOne`,
    );
    return row;
  }

  /** Live records among `ids` (any order). */
  findLiveByIds(db: Queryable, ids: string[]): Promise<Row[]> {
    const { where, values } = scoped(this.scope, `"id" = ANY($1::uuid[]) AND ${LIVE}`, [ids]);
    return db.query(`SELECT ${this.table.selectList} FROM ${this.table.name} WHERE ${where}`, values);
  }

  /** One page of a compiled list request. */
  page(db: Queryable, list: ListStatement): Promise<Row[]> {
    const { where, values } = scoped(this.scope, list.where, list.values);
    const select = [this.table.selectList, ...list.extraSelect].join(', ');
    return db.query(
      `SELECT ${select} FROM ${this.table.name}${where ? ` WHERE ${where}` : ''} ORDER BY ${list.orderBy} LIMIT ${list.limit}`,
      values,
    );
  }

  /**
   * The statement of an export (API.md section 15): every row of a compiled list request, no
   * limit; in its order when `ordered` (an `order_by` was given), else in storage order, so that
   * the first row leaves at once instead of after a sort of every match. `json`: each record's
   * JSON at depth 0 as text in `line` (the fields `keep` keeps besides id), built inside
   * PostgreSQL; else the rows as `page` reads them, for a codec.
   */
  exportStatement(
    list: ListStatement,
    ordered: boolean,
    json?: { keep: (name: string) => boolean },
  ): { text: string; values: unknown[] } {
    const { where, values } = scoped(this.scope, list.where, list.values);
    const select = json
      ? `(${recordJsonSql(this.table.meta, this.table.name, json.keep, true)})::text AS "line"`
      : this.table.selectList;
    return {
      text: `SELECT ${select} FROM ${this.table.name}${where ? ` WHERE ${where}` : ''}${ordered ? ` ORDER BY ${list.orderBy}` : ''}`,
      values,
    };
  }

  async count(db: Queryable, condition: string, bound: unknown[]): Promise<number> {
    const { where, values } = scoped(this.scope, condition, bound);
    const [row] = await db.query<{ count: number }>(
      `SELECT count(*) AS count FROM ${this.table.name}${where ? ` WHERE ${where}` : ''}`,
      values,
    );
    return row.count;
  }

  /** The rows matching `where`, counted up to `limit` + 1 at most (a count that stops early). */
  async countUpTo(db: Queryable, condition: string, bound: unknown[], limit: number): Promise<number> {
    const { where, values } = scoped(this.scope, condition, bound);
    const [row] = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM (SELECT 1 FROM ${this.table.name}${where ? ` WHERE ${where}` : ''} LIMIT ${limit + 1}) AS up_to`,
      values,
    );
    return row.count;
  }

  /** The planner's estimate of the rows matching `where` (no scan). */
  async estimate(db: Queryable, condition: string, bound: unknown[]): Promise<number> {
    const { where, values } = scoped(this.scope, condition, bound);
    const [row] = await db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${this.table.name}${where ? ` WHERE ${where}` : ''}`,
      values,
    );
    return Math.round(row['QUERY PLAN'][0].Plan['Plan Rows']);
  }

  /** How many records (live or soft-deleted) point at one of `ids` through `joinColumn`. */
  async countPointingAt(db: Queryable, joinColumn: string, ids: string[]): Promise<number> {
    const [row] = await db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ${this.table.name} WHERE ${q(joinColumn)} = ANY($1::uuid[])`,
      [ids],
    );
    return row.count;
  }

  async exists(db: Queryable): Promise<boolean> {
    const [row] = await db.query<{ exists: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${this.table.name}) AS exists`);
    return row.exists;
  }

  /**
   * Live children of many parents through `joinColumn` in one statement: at most `limit` per
   * parent, by `position` where the collection has one, else by id (a LATERAL join per parent).
   */
  children(db: Queryable, joinColumn: string, parentIds: unknown[], limit: number): Promise<Row[]> {
    const order = this.table.meta.hasPosition ? '"position" ASC NULLS LAST, "id" ASC' : '"id" ASC';
    const { where, values } = scoped(this.scope, `${q(joinColumn)} = p.pid AND ${LIVE}`, [parentIds]);
    return db.query(
      `SELECT c.* FROM unnest($1::uuid[]) AS p(pid) CROSS JOIN LATERAL (` +
        `SELECT ${this.table.selectList} FROM ${this.table.name} ` +
        `WHERE ${where} ORDER BY ${order} LIMIT ${limit}) c`,
      values,
    );
  }

  /** Live records matching a compiled duplicates condition (all of them counted in `__total`). */
  duplicates(db: Queryable, condition: string, bound: unknown[], limit: number): Promise<Row[]> {
    const { where, values } = scoped(this.scope, `${LIVE} AND ${condition}`, bound);
    return db.query(
      `SELECT ${this.table.selectList}, count(*) OVER () AS "__total" FROM ${this.table.name} ` +
        `WHERE ${where} ORDER BY "id" LIMIT ${limit}`,
      values,
    );
  }

  /** One `GROUP BY` over the rows matching `where`: `select` from the compiler, grouped by its first `dimensions` expressions. */
  aggregate(
    db: Queryable,
    clause: { select: string[]; dimensions: number; where: string; orderBy: string; limit: number; values: unknown[] },
  ): Promise<Row[]> {
    const { where, values } = scoped(this.scope, clause.where, clause.values);
    const groupBy = clause.dimensions
      ? ` GROUP BY ${Array.from({ length: clause.dimensions }, (_, i) => i + 1).join(', ')}`
      : '';
    return db.query(
      `SELECT ${clause.select.join(', ')} FROM ${this.table.name} WHERE ${where || 'TRUE'}${groupBy} ORDER BY ${clause.orderBy} LIMIT ${clause.limit}`,
      values,
    );
  }

  /** The first `perGroup` rows (in `orderBy`'s order) of every group of `dimensions` among the rows matching `where`, each with its group values `g0..`. */
  samples(
    db: Queryable,
    clause: { dimensions: string[]; where: string; orderBy: string; values: unknown[]; perGroup: number },
  ) {
    const { where, values } = scoped(this.scope, clause.where, clause.values);
    const groups = clause.dimensions.map((sql, i) => `${sql} AS "g${i}"`);
    const partition = clause.dimensions.length ? `PARTITION BY ${clause.dimensions.join(', ')} ` : '';
    // rows of a group in the sample's order: its place in the group ("__n") is that order
    return db.query<Row>(
      `SELECT * FROM (SELECT ${[this.table.selectList, ...groups].join(', ')}, row_number() OVER (${partition}ORDER BY ${clause.orderBy}) AS "__n" ` +
        `FROM ${this.table.name} WHERE ${where || 'TRUE'}) s WHERE "__n" <= ${clause.perGroup} ORDER BY "__n"`,
      values,
    );
  }

  /**
   * The live records whose unique `column` holds one of `values`: value → id (the target of a
   * relation set by a unique value; the conditions of its partial unique index, so that it is used).
   */
  async idsByValues(tx: Queryable, column: string, values: string[]): Promise<Map<string, string>> {
    if (values.length === 0) return new Map();
    const rows = await tx.query<{ id: string; value: string }>(
      // one index probe per value whatever the table's size (the planner may scan it for `= ANY`)
      `SELECT w."value", t."id" FROM unnest($1::text[]) AS w("value") CROSS JOIN LATERAL ` +
        `(SELECT "id" FROM ${this.table.name} WHERE ${q(column)}::text = w."value" AND ${q(column)} <> '' AND ${LIVE} LIMIT 1) AS t`,
      [values],
    );
    return new Map(rows.map((row) => [row.value, row.id]));
  }

  /** Those of `ids` that are records of the table (live or not): what a join column may point at. */
  async existingIds(tx: Queryable, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await tx.query<{ id: string }>(`SELECT "id" FROM ${this.table.name} WHERE "id" = ANY($1::uuid[])`, [
      ids,
    ]);
    return new Set(rows.map((row) => row.id));
  }
}
