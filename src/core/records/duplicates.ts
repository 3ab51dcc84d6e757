import { Queryable } from '../database/db';
import { col, SqlParams } from '../query/apply-query';
import { ColumnRef } from '../query/query-target';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord } from '../repository/record-codec';

/** Values shorter than this never match (API.md section 5). */
export const MIN_DUPLICATE_VALUE_LENGTH = 3;
/** Duplicates returned per input record; totalCount counts them all. */
export const MAX_DUPLICATES = 60;

/** A duplicate criterion resolved to columns. */
export type Criterion = ColumnRef[];

export function resolveCriteria(meta: CollectionMeta): Criterion[] {
  return meta.def.duplicateCriteria.map((criterion) => criterion.map((path) => meta.resolve(path.split('.'))));
}

function valueAt(record: Record<string, unknown>, path: string): unknown {
  const [name, sub] = path.split('.');
  const value = record[name];
  if (sub === undefined) return value;
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[sub] : undefined;
}

const TEXT_TYPES = new Set(['TEXT', 'RICH_TEXT']);

/**
 * SQL condition matching records that equal `input` on every field of at least one criterion
 * (case-insensitive for text; values under 3 characters never match). Undefined when no
 * criterion applies to the input.
 */
export function duplicateCondition(criteria: Criterion[], input: Record<string, unknown>, params: SqlParams): string | undefined {
  const branches: string[] = [];
  for (const criterion of criteria) {
    const values = criterion.map((ref) => valueAt(input, ref.path));
    const usable = values.every(
      (v) =>
        (typeof v === 'string' && v.trim().length >= MIN_DUPLICATE_VALUE_LENGTH) ||
        (typeof v === 'number' && Number.isFinite(v)),
    );
    if (!usable) continue;
    const parts = criterion.map((ref, i) =>
      TEXT_TYPES.has(ref.type)
        ? `lower(${col(ref.column)}) = lower(${params.add(values[i])})`
        : `${col(ref.column)} = ${params.add(values[i])}`,
    );
    branches.push(`(${parts.join(' AND ')})`);
  }
  return branches.length ? `(${branches.join(' OR ')})` : undefined;
}

export interface DuplicateMatch {
  rows: Record<string, unknown>[];
  totalCount: number;
}

/** Finds the duplicates of one input record (excluding `selfId` in ids mode). */
export async function findDuplicatesOf(
  db: Queryable,
  meta: CollectionMeta,
  criteria: Criterion[],
  input: ApiRecord,
  selfId?: string,
): Promise<DuplicateMatch> {
  const params = new SqlParams();
  const condition = duplicateCondition(criteria, input, params);
  if (!condition) return { rows: [], totalCount: 0 };
  const self = selfId ? ` AND "id" <> ${params.add(selfId)}` : '';
  const rows = await db.query(
    `SELECT ${meta.selectList}, count(*) OVER () AS "__total" FROM ${meta.sqlTable} ` +
      `WHERE "deletedAt" IS NULL AND ${condition}${self} ORDER BY "id" LIMIT ${MAX_DUPLICATES}`,
    params.values,
  );
  return { rows, totalCount: rows.length ? Number(rows[0].__total) : 0 };
}
