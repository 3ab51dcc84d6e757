import { Queryable } from '../database/db';
import { MAX_PARAMS, q, valuesList } from '../database/sql';
import { CollectionMeta, COMMON_FIELDS } from '../model/collection-meta';
import { Row } from '../model/record';
import { SqlParams } from '../query/apply-query';
import { StorageColumn } from '../fields/storage-columns';

/** A compiled list request: condition, order and bound values (from the query compiler). */
export interface PageClause {
  where: string;
  orderBy: string;
  limit: number;
  values: unknown[];
  /** Expressions selected beside the columns (`<expr> AS "__sort0"`: relation sort values for cursors). */
  extraSelect?: string[];
}

/**
 * The statement owner of one collection's table: every SQL statement on it is written here,
 * from the collection's metadata (columns, relations), with values only as bound parameters.
 * Conditions and orders come from the query compiler (`src/core/query`). Methods take the
 * connection or transaction to run on; writes are meant to run inside a transaction.
 */
export class RecordRepository {
  /** The quoted table name. */
  readonly table: string;
  /** `"id", "createdAt", ... , "statuses"::text[] AS "statuses"`: every readable column. */
  readonly selectList: string;
  /** `"id", "createdAt", ...`: the names of the columns `selectList` yields (to select them again from a CTE). */
  readonly columnNames: string;
  private readonly named: string;

  constructor(readonly meta: CollectionMeta) {
    this.table = q(meta.table);
    const readable = (col: StorageColumn) =>
      // enum arrays come back as untyped literals; cast to text[] so the driver parses them
      col.type === 'MULTI_SELECT' ? `${q(col.column)}::text[] AS ${q(col.column)}` : q(col.column);
    this.selectList = [...COMMON_FIELDS.map(q), ...meta.columns.filter((c) => !c.field.writeOnly).map(readable)].join(
      ', ',
    );
    this.columnNames = [...COMMON_FIELDS, ...meta.columns.filter((c) => !c.field.writeOnly).map((c) => c.column)]
      .map(q)
      .join(', ');
    this.named = meta.plural;
  }

  /** A live record by id (a named statement: parsed once per connection). */
  async findLive(db: Queryable, id: string): Promise<Row | undefined> {
    const [row] = await db.query(
      `SELECT ${this.selectList} FROM ${this.table} WHERE "id" = $1 AND "deletedAt" IS NULL`,
      [id],
      `${this.named}.findOne`,
    );
    return row;
  }

  /** A record by id, live or soft-deleted. */
  async findAny(db: Queryable, id: string): Promise<Row | undefined> {
    const [row] = await db.query(`SELECT ${this.selectList} FROM ${this.table} WHERE "id" = $1`, [id]);
    return row;
  }

  /** Live records among `ids` (any order). */
  findLiveByIds(db: Queryable, ids: string[]): Promise<Row[]> {
    return db.query(
      `SELECT ${this.selectList} FROM ${this.table} WHERE "id" = ANY($1::uuid[]) AND "deletedAt" IS NULL`,
      [ids],
    );
  }

  /** One page of a compiled list request. */
  page(db: Queryable, clause: PageClause): Promise<Row[]> {
    const where = clause.where ? ` WHERE ${clause.where}` : '';
    const select = [this.selectList, ...(clause.extraSelect ?? [])].join(', ');
    return db.query(
      `SELECT ${select} FROM ${this.table}${where} ORDER BY ${clause.orderBy} LIMIT ${clause.limit}`,
      clause.values,
    );
  }

  async count(db: Queryable, where: string, values: unknown[]): Promise<number> {
    const [row] = await db.query<{ count: number }>(
      `SELECT count(*) AS count FROM ${this.table}${where ? ` WHERE ${where}` : ''}`,
      values,
    );
    return row.count;
  }

  /** The planner's estimate of the rows matching `where` (no scan). */
  async estimate(db: Queryable, where: string, values: unknown[]): Promise<number> {
    const [row] = await db.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${this.table}${where ? ` WHERE ${where}` : ''}`,
      values,
    );
    return Math.round(row['QUERY PLAN'][0].Plan['Plan Rows']);
  }

  async exists(db: Queryable): Promise<boolean> {
    const [row] = await db.query<{ exists: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${this.table}) AS exists`);
    return row.exists;
  }

  /**
   * Live children of many parents through `joinColumn` in one statement: at most `limit` per
   * parent, by `position` where the collection has one, else by id (a LATERAL join per parent).
   */
  children(db: Queryable, joinColumn: string, parentIds: unknown[], limit: number): Promise<Row[]> {
    const order = this.meta.hasPosition ? '"position" ASC NULLS LAST, "id" ASC' : '"id" ASC';
    return db.query(
      `SELECT c.* FROM unnest($1::uuid[]) AS p(pid) CROSS JOIN LATERAL (` +
        `SELECT ${this.selectList} FROM ${this.table} ` +
        `WHERE ${q(joinColumn)} = p.pid AND "deletedAt" IS NULL ORDER BY ${order} LIMIT ${limit}) c`,
      [parentIds],
    );
  }

  /** Live records matching a compiled duplicates condition (all of them counted in `__total`). */
  duplicates(db: Queryable, condition: string, values: unknown[], limit: number): Promise<Row[]> {
    return db.query(
      `SELECT ${this.selectList}, count(*) OVER () AS "__total" FROM ${this.table} ` +
        `WHERE "deletedAt" IS NULL AND ${condition} ORDER BY "id" LIMIT ${limit}`,
      values,
    );
  }

  /**
   * `INSERT ... VALUES ... RETURNING <columns>` of every tuple in one statement (a CTE body), values
   * bound through `params`; undefined when they need more parameters than one statement takes.
   */
  insertReturning(columns: string[], tuples: unknown[][], params: SqlParams): string | undefined {
    if (params.values.length + columns.length * tuples.length > MAX_PARAMS) return undefined;
    return `INSERT INTO ${this.table} (${columns.map(q).join(', ')}) VALUES ${valuesList(tuples, params.values)} RETURNING ${this.selectList}`;
  }

  /** Inserts rows of `columns` (in as few statements as the parameter bound allows), returning them in input order. */
  async insert(tx: Queryable, columns: string[], tuples: unknown[][]): Promise<Row[]> {
    const rowsPerStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
    const returned = new Map<unknown, Row>();
    for (let start = 0; start < tuples.length; start += rowsPerStatement) {
      const values: unknown[] = [];
      const rows = valuesList(tuples.slice(start, start + rowsPerStatement), values);
      const sql = `INSERT INTO ${this.table} (${columns.map(q).join(', ')}) VALUES ${rows} RETURNING ${this.selectList}`;
      for (const row of await tx.query(sql, values)) returned.set(row.id, row);
    }
    return tuples.map((tuple) => returned.get(tuple[columns.indexOf('id')])!);
  }

  /**
   * `INSERT INTO <table> (...) SELECT ... FROM jsonb_to_recordset($n)`: the body of a
   * data-modifying CTE writing any number of rows of this collection with ONE bound parameter
   * (a JSON array of objects keyed by column), so a write's events take one statement whatever
   * their number. `placeholder` is the parameter (`$3`), already bound by the caller.
   */
  insertFromJson(columns: string[], placeholder: string): string {
    const types = columns.map((c) => `${q(c)} ${this.sqlType(c)}`).join(', ');
    return `INSERT INTO ${this.table} (${columns.map(q).join(', ')}) SELECT ${columns.map((c) => `r.${q(c)}`).join(', ')} FROM jsonb_to_recordset(${placeholder}::jsonb) AS r(${types})`;
  }

  /** `INSERT INTO <table> (columns) <select>`: rows computed by a query (e.g. from a write's events). */
  insertFrom(columns: string[], select: string): string {
    return `INSERT INTO ${this.table} (${columns.map(q).join(', ')}) ${select}`;
  }

  /** The SQL type of a stored column, for typed record sets (`jsonb_to_recordset`). */
  sqlType(column: string): string {
    if (column === 'id') return 'uuid';
    if ((COMMON_FIELDS as readonly string[]).includes(column)) return 'timestamp with time zone';
    const stored = this.meta.columns.find((c) => c.column === column);
    if (!stored) throw new Error(`${this.meta.plural} has no column ${column}`);
    if (stored.pgType === 'enum')
      return q(`${this.meta.table}_${column.toLowerCase()}_enum`) + (stored.type === 'MULTI_SELECT' ? '[]' : '');
    return stored.pgType + (stored.type === 'ARRAY' ? '[]' : '');
  }

  /** A live record, locked for the rest of the transaction when `lock` (a named statement). */
  async findLiveForWrite(tx: Queryable, id: string, lock: boolean): Promise<Row | undefined> {
    const suffix = lock ? ' FOR UPDATE' : '';
    const [row] = await tx.query(
      `SELECT ${this.selectList} FROM ${this.table} WHERE "id" = $1 AND "deletedAt" IS NULL${suffix}`,
      [id],
      `${this.named}.before${lock ? 'Locked' : ''}`,
    );
    return row;
  }

  /** Locks a record (live only, or any when `liveOnly` is false) and returns its row. */
  async lock(tx: Queryable, id: string, liveOnly: boolean): Promise<Row | undefined> {
    const live = liveOnly ? ' AND "deletedAt" IS NULL' : '';
    const [row] = await tx.query(`SELECT ${this.selectList} FROM ${this.table} WHERE "id" = $1${live} FOR UPDATE`, [
      id,
    ]);
    return row;
  }

  /** Sets the given columns of one record (and `updatedAt`); returns the row after. */
  async update(tx: Queryable, id: string, columns: string[], values: unknown[]): Promise<Row | undefined> {
    const sets = columns.map((c, i) => `${q(c)} = $${i + 2}`);
    const [row] = await tx.query(
      `UPDATE ${this.table} SET ${sets.join(', ')}, "updatedAt" = now() WHERE "id" = $1 RETURNING ${this.selectList}`,
      [id, ...values],
    );
    return row;
  }

  /** Soft-deletes a live record (`deleted`) or restores a soft-deleted one; the row after, if it changed. */
  async setDeleted(tx: Queryable, id: string, deleted: boolean): Promise<Row | undefined> {
    const change = deleted
      ? `"deletedAt" = now() WHERE "id" = $1 AND "deletedAt" IS NULL`
      : `"deletedAt" = NULL WHERE "id" = $1 AND "deletedAt" IS NOT NULL`;
    const [row] = await tx.query(`UPDATE ${this.table} SET ${change} RETURNING ${this.selectList}`, [id]);
    return row;
  }

  /** Hard delete; foreign keys clear (SET NULL) or delete (CASCADE) the rows that point here. */
  async destroy(tx: Queryable, id: string): Promise<Row | undefined> {
    const [row] = await tx.query(`DELETE FROM ${this.table} WHERE "id" = $1 RETURNING ${this.selectList}`, [id]);
    return row;
  }
}
