import { literal, q } from '../database/sql';
import { valueSql } from './record-json';
import { TableSql } from './table-sql';

/**
 * The per-record patch of upserts and imports (PATCH semantics per record, one statement whatever
 * their number): the changes are bound as one JSON record set `r` of `{__id, __set: [columns
 * sent], <column>: value}`; each record `t` gets the values of the columns its change names and
 * keeps the others; a soft-deleted record is restored; `updatedAt` moves only for a record that
 * changed. The pieces are shared by the patch without events (`patchSql`) and the one with
 * (`WriteStatements.patch`).
 */
export class PatchSql {
  /** The value each column gets, over `t` (the record) and `r` (its change). */
  readonly values: Map<string, string>;

  constructor(
    readonly table: TableSql,
    readonly columns: string[],
  ) {
    const next = columns.map((c) => `CASE WHEN ${literal(c)} = ANY(r."__set") THEN r.${q(c)} ELSE t.${q(c)} END`);
    const changed = columns.length
      ? `t."deletedAt" IS NOT NULL OR (${columns.map((c) => `t.${q(c)}`).join(', ')}, NULL) IS DISTINCT FROM (${next.join(', ')}, NULL)`
      : 't."deletedAt" IS NOT NULL';
    this.values = new Map(columns.map((c, i) => [c, next[i]]));
    this.values.set('updatedAt', `CASE WHEN ${changed} THEN now() ELSE t."updatedAt" END`);
    this.values.set('deletedAt', 'NULL::timestamp with time zone');
  }

  /** The record set `r` of the changes bound as `param` (a JSON array). */
  changes(param: string): string {
    const types = ['"__id" uuid', '"__set" text[]', ...this.columns.map((c) => `${q(c)} ${this.table.sqlType(c)}`)];
    return `jsonb_to_recordset(${param}::jsonb) AS r(${types.join(', ')})`;
  }

  /** `SET` of the UPDATE. */
  assignments(): string {
    return [...this.values].map(([column, value]) => `${q(column)} = ${value}`).join(', ');
  }
}

/**
 * `write`: the UPDATE, rows after. `preview`: without writing, each record's id and whether the
 * write would change it (`__changed`: restored, or a field's value differs, as the write's events
 * tell), for a check that must count what a write would update and leave unchanged.
 */
export function patchSql(table: TableSql, columns: string[], kind: 'write' | 'preview'): string {
  const patch = new PatchSql(table, columns);
  const changes = patch.changes('$1');
  if (kind === 'write') {
    return (
      `UPDATE ${table.name} AS t SET ${patch.assignments()} FROM ${changes} ` +
      `WHERE t."id" = r."__id" RETURNING ${table.selectListOfT}`
    );
  }
  // a field changes when the value of one of its columns in the event copy does (recordJson's
  // values: the same comparison as the write's diff, column by column, without building copies)
  const compared = columns.flatMap((column) => {
    const stored = table.meta.columns.find((c) => c.column === column)!;
    if (stored.field.encrypted || stored.field.writeOnly) return [];
    return [`${valueSql(stored, `t.${q(column)}`)} IS DISTINCT FROM ${valueSql(stored, patch.values.get(column)!)}`];
  });
  const changed = ['t."deletedAt" IS NOT NULL', ...compared].join(' OR ');
  return `SELECT t."id", (${changed}) AS "__changed" FROM ${table.name} AS t JOIN ${changes} ON t."id" = r."__id"`;
}
