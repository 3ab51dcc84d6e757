import { q } from '../database/sql';
import { SqlParams } from './sql-params';
import { ColumnRef } from '../model/column-ref';
import { CollectionMeta } from '../model/collection-meta';

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
 * criterion applies to the input. `selfId`: the record the input is, left out.
 */
export function duplicateCondition(
  criteria: Criterion[],
  input: Record<string, unknown>,
  params: SqlParams,
  selfId?: string,
): string | undefined {
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
        ? `lower(${q(ref.column)}) = lower(${params.add(values[i])})`
        : `${q(ref.column)} = ${params.add(values[i])}`,
    );
    branches.push(`(${parts.join(' AND ')})`);
  }
  if (!branches.length) return undefined;
  // a record looked up by id is not its own duplicate
  return `(${branches.join(' OR ')})${selfId ? ` AND "id" <> ${params.add(selfId)}` : ''}`;
}
