import type { CollectionMeta } from '../model/collection-meta';
import type { RecordEvent } from './record-events';

/**
 * The events of one write as a relation named `ev`, which every subscriber's statement reads:
 * one row per record event, with the record copies as JSON (depth 0, secrets redacted).
 * A write builds it in SQL from its own rows (set-based writes: nothing leaves PostgreSQL) or
 * from events computed in Node, bound as one JSON record set.
 */
export const EVENT_RELATION = 'ev';

/** Columns of `ev`, typed (the record set definition of `jsonb_to_recordset`). */
export const EVENT_COLUMNS =
  '"name" text, "action" text, "objectName" text, "recordId" uuid, "before" jsonb, "after" jsonb, "diff" jsonb, "updatedFields" jsonb';

/** The row of `ev` for an event computed in Node (bound as JSON). */
export function eventRow(event: RecordEvent): Record<string, unknown> {
  return {
    name: event.name,
    action: event.action,
    objectName: event.meta.def.singular,
    recordId: event.recordId,
    before: event.before ?? null,
    after: event.after ?? null,
    diff: event.diff ?? null,
    updatedFields: event.updatedFields ?? null,
  };
}

/** `properties` of the audit (and timeline) row of an `ev` row `e`: {after} / {before, after, diff} / {before}, as `auditProperties`. */
export function eventPropertiesSql(e: string): string {
  return (
    `CASE ${e}."action" WHEN 'updated' THEN jsonb_build_object('before', ${e}."before", 'after', ${e}."after", 'diff', ${e}."diff") ` +
    `WHEN 'created' THEN jsonb_build_object('after', ${e}."after") WHEN 'restored' THEN jsonb_build_object('after', ${e}."after") ` +
    `ELSE jsonb_build_object('before', ${e}."before") END`
  );
}

/** The record an `ev` row is about: after the change, or before it when there is no after (destroyed). */
export const eventRecordSql = (e: string) => `coalesce(${e}."after", ${e}."before")`;

/** `ARRAY['a', 'b']::text[]` of field names. */
const namesSql = (names: string[]) => `ARRAY[${names.map((n) => `'${n.replace(/'/g, "''")}'`).join(', ')}]::text[]`;

/**
 * The `diff` of an update from the record copies before and after (JSON expressions): the fields
 * whose value changed (`updatedAt` aside) with their values before and after, as `recordEvent`.
 * `fields`: the only fields the update can have changed (those it assigned), compared alone
 * instead of every key of the record.
 */
export function diffSql(before: string, after: string, fields?: string[]): string {
  if (fields) {
    return (
      `(SELECT coalesce(jsonb_object_agg(k.key, jsonb_build_object('before', ${before} -> k.key, 'after', ${after} -> k.key)), '{}'::jsonb) ` +
      `FROM unnest(${namesSql(fields)}) AS k(key) WHERE ${after} -> k.key IS DISTINCT FROM ${before} -> k.key)`
    );
  }
  return (
    `(SELECT coalesce(jsonb_object_agg(k.key, jsonb_build_object('before', ${before} -> k.key, 'after', k.value)), '{}'::jsonb) ` +
    `FROM jsonb_each(${after}) k WHERE k.key <> 'updatedAt' AND k.value IS DISTINCT FROM ${before} -> k.key)`
  );
}

/**
 * `updatedFields` from a `diff` expression: its keys in the order of the collection's fields, as
 * `recordEvent`; `fields`: the only keys it can hold.
 */
export function updatedFieldsSql(meta: CollectionMeta, diff: string, fields?: string[]): string {
  const all = ['id', ...meta.fields.filter((f) => !f.writeOnly).map((f) => f.name), 'createdAt', 'deletedAt'];
  const order = fields ? all.filter((name) => fields.includes(name)) : all;
  return `(SELECT jsonb_agg(f.n ORDER BY f.i) FROM unnest(${namesSql(order)}) WITH ORDINALITY AS f(n, i) WHERE ${diff} ? f.n)`;
}
