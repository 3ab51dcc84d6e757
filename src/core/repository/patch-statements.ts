import { literal, q } from '../database/sql';
import { TableSql } from './table-sql';

/**
 * The per-record patch of upserts and imports (PATCH semantics per record, one statement whatever
 * their number): the changes are bound as one JSON record set `r` of `{__id, __set: [columns
 * sent], <column>: value}`; each record gets the values of the columns its change names and keeps
 * the others; a soft-deleted record is restored; `updatedAt` moves only for a record that changed.
 * `write`: the UPDATE, rows after. `preview`: the same rows after, computed without writing (a
 * check that must count what a write would update and leave unchanged).
 */
export function patchSql(table: TableSql, columns: string[], kind: 'write' | 'preview'): string {
  const types = ['"__id" uuid', '"__set" text[]', ...columns.map((c) => `${q(c)} ${table.sqlType(c)}`)];
  const next = columns.map((c) => `CASE WHEN ${literal(c)} = ANY(r."__set") THEN r.${q(c)} ELSE t.${q(c)} END`);
  const changed = columns.length
    ? `t."deletedAt" IS NOT NULL OR (${columns.map((c) => `t.${q(c)}`).join(', ')}, NULL) IS DISTINCT FROM (${next.join(', ')}, NULL)`
    : 't."deletedAt" IS NOT NULL';
  const values = new Map(columns.map((c, i) => [c, next[i]]));
  values.set('updatedAt', `CASE WHEN ${changed} THEN now() ELSE t."updatedAt" END`);
  values.set('deletedAt', 'NULL');
  const changes = `jsonb_to_recordset($1::jsonb) AS r(${types.join(', ')})`;
  if (kind === 'write') {
    const sets = [...values].map(([column, value]) => `${q(column)} = ${value}`);
    return (
      `UPDATE ${table.name} AS t SET ${sets.join(', ')} FROM ${changes} ` +
      `WHERE t."id" = r."__id" RETURNING ${table.selectListOfT}`
    );
  }
  const after = table.readColumns.map((column) => `${values.get(column) ?? `t.${q(column)}`} AS ${q(column)}`);
  return (
    `SELECT ${table.selectListOfT} FROM (SELECT ${after.join(', ')} FROM ${table.name} AS t ` +
    `JOIN ${changes} ON t."id" = r."__id") AS t`
  );
}
