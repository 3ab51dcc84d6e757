import { isDeepStrictEqual } from 'node:util';
import { FieldDefinition, isComposite } from '../fields/field-definition';
import { subFieldsOf } from '../fields/composite-fields';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord } from '../model/record';

/** Values that a merge fills from another record: null, '' and composites with nothing in them. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).every(isEmpty);
  return false;
}

/** Lists merged as unions: ARRAY, MULTI_SELECT, and JSON list sub-fields (additionalEmails, additionalPhones, secondaryLinks). */
function isListLike(field: FieldDefinition): boolean {
  if (field.type === 'ARRAY' || field.type === 'MULTI_SELECT') return true;
  const shape = (field as { jsonShape?: unknown }).jsonShape;
  return (
    field.type === 'RAW_JSON' &&
    (shape === 'stringArray' || (typeof shape === 'object' && shape !== null && 'arrayOf' in shape))
  );
}

/** Items of all lists, in order, without repeats. */
function union(lists: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const item of list) if (!out.some((seen) => isDeepStrictEqual(seen, item))) out.push(item);
  }
  return out;
}

/**
 * The fields of the surviving record of a merge (API.md section 11): each empty field takes the
 * first non-empty value among the others, in `ids` order; list-like values are the union (the
 * merged-away records' primary values are not added to them). Returns only what changes.
 */
export function mergedFields(meta: CollectionMeta, survivor: ApiRecord, others: ApiRecord[]): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  const all = [survivor, ...others];
  for (const field of meta.fields) {
    if (field.writeOnly) continue;
    const current = survivor[field.name];
    let merged: unknown = isEmpty(current)
      ? (others.map((r) => r[field.name]).find((v) => !isEmpty(v)) ?? current)
      : current;
    if (isListLike(field)) {
      merged = union(all.map((r) => r[field.name]));
    } else if (isComposite(field.type) && merged !== null && typeof merged === 'object') {
      const lists = subFieldsOf(field.type).filter(isListLike);
      if (lists.length > 0) {
        merged = { ...(merged as Record<string, unknown>) };
        for (const sub of lists) {
          const value = union(all.map((r) => (r[field.name] as Record<string, unknown> | null)?.[sub.name]));
          (merged as Record<string, unknown>)[sub.name] =
            value.length || (merged as Record<string, unknown>)[sub.name] !== null ? value : null;
        }
      }
    }
    if (!isDeepStrictEqual(merged, current)) changes[field.name] = merged;
  }
  return changes;
}
