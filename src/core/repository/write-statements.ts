import { jsonRows, MAX_PARAMS, q, rowsSql, valuesList } from '../database/sql';
import { whereSql } from '../query/filter-sql';
import { ResolvedFilter } from '../query/resolve-filter';
import { SqlParams } from '../query/sql-params';
import { diffSql, eventsOfSql, updatedEventsSql } from './event-rows';
import { EventfulWrite } from './eventful-write';
import { PatchSql } from './patch-statements';
import { RowScope } from './row-scope';
import { TableSql } from './table-sql';

/** The records a write changes: some by id, or those a checked filter matches (at most `limit`, locked in id order). */
export type WriteTarget = { ids: string[] } | { filter: ResolvedFilter; limit: number };

/**
 * How many records a write by ids means: `one` (a request on one record, by its id: the same
 * text again and again, prepared once hot, and it answers what it found) or `many` (a bulk write
 * over records locked beforehand).
 */
export type Cardinality = 'one' | 'many';

/**
 * The writes of one collection's table: each is ONE statement that changes the records and
 * produces their events (the CTEs of the change and the `ev` relation of its event rows), which
 * the event bus completes with its subscribers' rows and runs. Single-record and bulk writes share
 * these builders; they differ only by their target. CTE names: `b` the targets before the change,
 * `u` the rows the statement answers, `c`/`d` an update's copies and diffs, `changed` the rows a
 * soft delete changed.
 */
export class WriteStatements {
  /** `scope`: the rows of the key it is built for (it changes only them, and may not write others). */
  constructor(
    readonly table: TableSql,
    readonly scope?: RowScope,
  ) {}

  private write(ctes: string[], events: string, params: SqlParams, extra: Partial<EventfulWrite> = {}): EventfulWrite {
    const answer = { columns: this.table.columnNames, from: 'u', orderBy: '"id"' };
    return { collections: [this.table.meta], ctes, events, answer, params, ...extra };
  }

  /** ` AND <the key's rows>` (nothing without a scope). */
  private inScope(params: SqlParams): string {
    return this.scope ? ` AND ${this.scope.sql(params)}` : '';
  }

  /**
   * A write that must leave every row it writes (`u`) inside the key's rows: a `fence` CTE fails the
   * whole statement (nothing written, a 403) when one falls outside; the answer reads it so it runs.
   */
  private fenced(write: EventfulWrite): EventfulWrite {
    if (!this.scope) return write;
    const message = write.params.add(this.scope.forbidden);
    const outside = `(${this.scope.sql(write.params)}) IS NOT TRUE`;
    const fence = `fence AS (SELECT crm_forbid(${message}) FROM u WHERE ${outside} LIMIT 1)`;
    const answer = { ...write.answer, from: `${write.answer.from} WHERE NOT EXISTS (SELECT 1 FROM fence)` };
    return { ...write, ctes: [...write.ctes, fence], answer };
  }

  /** `INSERT ... RETURNING` of every tuple with their `created` events; undefined when they need more parameters than one statement takes. */
  create(columns: string[], tuples: unknown[][]): EventfulWrite | undefined {
    const params = new SqlParams();
    if (columns.length * tuples.length > MAX_PARAMS) return undefined;
    return this.inserted(columns, `VALUES ${valuesList(tuples, params.values)}`, params);
  }

  /**
   * The same as `create`, the tuples bound as one JSON parameter (`jsonRows`): one statement whatever
   * their number, its text the same for the same columns (prepared once). For a large create (an
   * import's checkpoint): PostgreSQL parses one JSON value instead of a bound parameter per value.
   */
  createFromJson(columns: string[], tuples: unknown[][]): EventfulWrite {
    const params = new SqlParams();
    const types = columns.map((c) => this.table.sqlType(c));
    return this.inserted(columns, rowsSql(params.add(jsonRows(tuples)), types), params);
  }

  /** The insert of `rows` (a VALUES list or a SELECT) into `columns`, with the `created` events of what it inserted. */
  private inserted(columns: string[], rows: string, params: SqlParams): EventfulWrite {
    const insert = `INSERT INTO ${this.table.name} (${columns.map(q).join(', ')}) ${rows} RETURNING ${this.table.selectList}`;
    const events = eventsOfSql(this.table.meta, 'created', 'u', 'NULL::jsonb', this.table.recordJson('r'));
    return this.fenced(this.write([`u AS (${insert})`], events, params, { prepared: true }));
  }

  /**
   * The same partial update of every record of `target` (live ones; by filter: those it matches):
   * `u` returns each record's copy before the change beside its columns after it, events
   * `updated` only for records whose fields changed (only the fields of the assigned columns can
   * have). By filter, nothing is updated when the filter matches more than `limit` - 1 records
   * (the caller tells none from too many).
   */
  update(target: WriteTarget, columns: string[], values: unknown[]): EventfulWrite {
    const params = new SqlParams();
    const { meta } = this.table;
    let targets: string;
    let guard = '';
    if ('ids' in target) {
      targets = `SELECT t."id", ${this.table.recordJson('t')} AS "json" FROM ${this.table.name} t WHERE t."id" = ANY(${params.add(target.ids)}::uuid[]) AND t."deletedAt" IS NULL${this.inScope(params)} FOR UPDATE`;
    } else {
      const where = whereSql(meta, target.filter, 'filtered', params) + this.inScope(params);
      targets = `SELECT "id", ${this.table.recordJson(this.table.name)} AS "json" FROM ${this.table.name} WHERE ${where} ORDER BY "id" LIMIT ${target.limit} FOR UPDATE`;
      guard = ` AND (SELECT count(*) FROM b) <= ${target.limit - 1}`;
    }
    const sets = columns.map((c, i) => `${q(c)} = ${params.add(values[i])}`).concat('"updatedAt" = now()');
    const updated = `UPDATE ${this.table.name} t SET ${sets.join(', ')} FROM b WHERE t."id" = b."id"${guard} RETURNING ${this.table.selectListOfT}, b."json" AS "__before"`;
    const fields = this.table.fieldsOf(columns);
    const changes = `SELECT u."id", u."__before" AS "before", ${this.table.recordJson('u')} AS "after" FROM u`;
    const diffs = `SELECT c.*, ${diffSql('c."before"', 'c."after"', fields)} AS "diff" FROM c`;
    // materialized: each record copy is built once, not once per reference
    const ctes = [
      `b AS MATERIALIZED (${targets})`,
      `u AS (${updated})`,
      `c AS MATERIALIZED (${changes})`,
      `d AS MATERIALIZED (${diffs})`,
    ];
    return this.fenced(this.write(ctes, updatedEventsSql(meta, fields), params, { prepared: 'ids' in target }));
  }

  /**
   * Patches each record named by `changes` with its own columns (PatchSql: one JSON record set
   * whatever their number; the records locked beforehand), with the events of what changed: the
   * `restored` event of a soft-deleted record, then its `updated` event when a field's value
   * differs. Answers each record's id and whether it changed (`__changed`).
   */
  patch(columns: string[], changes: Record<string, unknown>[]): EventfulWrite {
    const params = new SqlParams();
    const patch = new PatchSql(this.table, columns);
    const fields = this.table.fieldsOf(columns);
    const before = `SELECT t."id", ${this.table.recordJson('t')} AS "json", t."deletedAt" IS NOT NULL AS "restored" FROM ${this.table.name} t JOIN r ON t."id" = r."__id"`;
    const updated =
      `UPDATE ${this.table.name} AS t SET ${patch.assignments()} FROM r JOIN b ON b."id" = r."__id" ` +
      `WHERE t."id" = r."__id" RETURNING ${this.table.selectListOfT}, b."json" AS "__before", b."restored" AS "__restored"`;
    // the copy before an update is the record restored (the `restored` event tells the restore)
    const copies = `SELECT u."id", u."__restored" AS "restored", u."__before" || '{"deletedAt": null}'::jsonb AS "before", ${this.table.recordJson('u')} AS "after" FROM u`;
    const ctes = [
      `r AS MATERIALIZED (SELECT * FROM ${patch.changes(params.add(JSON.stringify(changes)))})`,
      `b AS MATERIALIZED (${before})`,
      `u AS (${updated})`,
      `c AS MATERIALIZED (${copies})`,
      `d AS MATERIALIZED (SELECT c.*, ${diffSql('c."before"', 'c."after"', fields)} AS "diff" FROM c)`,
    ];
    const restored = eventsOfSql(
      this.table.meta,
      'restored',
      '(SELECT * FROM c WHERE c."restored")',
      'NULL::jsonb',
      'r."after"',
    );
    const events = `${restored} UNION ALL ${updatedEventsSql(this.table.meta, fields)}`;
    const answer = { columns: `"id", "restored" OR "diff" <> '{}'::jsonb AS "__changed"`, from: 'd', orderBy: '"id"' };
    return this.fenced(this.write(ctes, events, params, { answer, prepared: true }));
  }

  /**
   * Soft-deletes the live records among `ids`, with their `deleted` events (the record before is
   * the same with deletedAt unset). `many`: the records already soft-deleted are answered too.
   */
  softDelete(ids: string[], cardinality: Cardinality): EventfulWrite {
    const params = new SqlParams();
    const list = params.add(ids);
    const after = this.table.recordJson('r');
    const before = `${after} || '{"deletedAt": null}'::jsonb`;
    const change = this.setDeleted(list, true, params);
    if (cardinality === 'one') {
      return this.write([`u AS (${change})`], eventsOfSql(this.table.meta, 'deleted', 'u', before, after), params, {
        prepared: true,
      });
    }
    const ctes = [
      `changed AS (${change})`,
      `u AS (SELECT * FROM changed UNION ALL SELECT * FROM (${this.rowsOf(list, params)}) unchanged WHERE "id" NOT IN (SELECT "id" FROM changed))`,
    ];
    return this.write(ctes, eventsOfSql(this.table.meta, 'deleted', 'changed', before, after), params);
  }

  /** Hard-deletes the records of `ids` (foreign keys clear or cascade), with their `destroyed` events; answers their ids. */
  destroy(ids: string[], cardinality: Cardinality): EventfulWrite {
    const params = new SqlParams();
    const destroy = `DELETE FROM ${this.table.name} WHERE "id" = ANY(${params.add(ids)}::uuid[])${this.inScope(params)} RETURNING ${this.table.selectList}`;
    const events = eventsOfSql(this.table.meta, 'destroyed', 'u', this.table.recordJson('r'), 'NULL::jsonb');
    return this.write([`u AS (${destroy})`], events, params, {
      answer: { columns: '"id"', from: 'u', orderBy: '"id"' },
      prepared: cardinality === 'one',
    });
  }

  /** Restores the soft-deleted records among `ids`, with their `restored` events. `one`: a live record is answered as it is. */
  restore(ids: string[], cardinality: Cardinality): EventfulWrite {
    const params = new SqlParams();
    const list = params.add(ids);
    const events = eventsOfSql(this.table.meta, 'restored', 'u', 'NULL::jsonb', this.table.recordJson('r'));
    const ctes = [`u AS (${this.setDeleted(list, false, params)})`];
    if (cardinality === 'many') return this.write(ctes, events, params);
    // the record restored, or as it is when it was live
    const from = `(SELECT * FROM u UNION ALL ${this.rowsOf(list, params)} AND NOT EXISTS (SELECT 1 FROM u)) a`;
    return this.write(ctes, events, params, {
      answer: { columns: this.table.columnNames, from, orderBy: '"id"' },
      prepared: true,
    });
  }

  /** `INSERT INTO <table> (columns) <select>`: rows computed by a query (an event subscriber's CTE over `ev`). */
  insertFrom(columns: string[], select: string): string {
    return `INSERT INTO ${this.table.name} (${columns.map(q).join(', ')}) ${select}`;
  }

  private setDeleted(ids: string, deleted: boolean, params: SqlParams): string {
    const change = deleted
      ? `"deletedAt" = now() WHERE "deletedAt" IS NULL`
      : `"deletedAt" = NULL WHERE "deletedAt" IS NOT NULL`;
    return `UPDATE ${this.table.name} SET ${change} AND "id" = ANY(${ids}::uuid[])${this.inScope(params)} RETURNING ${this.table.selectList}`;
  }

  private rowsOf(ids: string, params: SqlParams): string {
    return `SELECT ${this.table.selectList} FROM ${this.table.name} WHERE "id" = ANY(${ids}::uuid[])${this.inScope(params)}`;
  }
}
