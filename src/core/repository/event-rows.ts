import { literal, namesArray } from '../database/sql';
import type { CollectionMeta } from '../model/collection-meta';
import type { RecordAction, RecordEvent } from '../model/record-events';
import { SqlParams } from '../query/sql-params';

/**
 * The event rows of a write: the one place they are produced. The events of a write are a
 * relation named `ev`, which every subscriber's statement reads: one row per record event, with
 * the record copies as JSON (depth 0, secrets redacted). A write builds it in SQL from its own rows
 * (set-based and single-record writes: nothing leaves PostgreSQL), or from events computed in
 * Node (upserts, merges, creates too large for one statement), bound as one JSON record set.
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

/** `ev` of events computed in Node: one bound JSON record set, whatever their number. */
export function eventsFromJsonSql(events: RecordEvent[], params: SqlParams): string {
  return `SELECT * FROM jsonb_to_recordset(${params.add(JSON.stringify(events.map(eventRow)))}::jsonb) AS e(${EVENT_COLUMNS})`;
}

/** `ev` of events `action` on the rows `r` of `from`, with the record copies `before` and `after` (SQL over `r`). */
export function eventsOfSql(meta: CollectionMeta, action: RecordAction, from: string, before: string, after: string) {
  return (
    `SELECT ${literal(`${meta.def.singular}.${action}`)} AS "name", '${action}' AS "action", ${literal(meta.def.singular)} AS "objectName", ` +
    `r."id" AS "recordId", ${before} AS "before", ${after} AS "after", NULL::jsonb AS "diff", NULL::jsonb AS "updatedFields" FROM ${from} r`
  );
}

/** `ev` of `updated` events from the rows `d` (id, before, after, diff), only where a field changed. */
export function updatedEventsSql(meta: CollectionMeta, fields: string[]): string {
  return (
    `SELECT ${literal(`${meta.def.singular}.updated`)} AS "name", 'updated' AS "action", ${literal(meta.def.singular)} AS "objectName", ` +
    `d."id" AS "recordId", d."before", d."after", d."diff", ${updatedFieldsSql(meta, 'd."diff"', fields)} AS "updatedFields" ` +
    `FROM d WHERE d."diff" <> '{}'::jsonb`
  );
}

/** `properties` of the audit (and timeline) row of an `ev` row `e`: {after} / {before, after, diff} / {before}. */
export function eventPropertiesSql(e: string): string {
  return (
    `CASE ${e}."action" WHEN 'updated' THEN jsonb_build_object('before', ${e}."before", 'after', ${e}."after", 'diff', ${e}."diff") ` +
    `WHEN 'created' THEN jsonb_build_object('after', ${e}."after") WHEN 'restored' THEN jsonb_build_object('after', ${e}."after") ` +
    `ELSE jsonb_build_object('before', ${e}."before") END`
  );
}

/** The record an `ev` row is about: after the change, or before it when there is no after (destroyed). */
export const eventRecordSql = (e: string) => `coalesce(${e}."after", ${e}."before")`;

/**
 * The `diff` of an update from the record copies before and after (JSON expressions): the fields
 * whose value changed with their values before and after, as `recordEvent`. Only `fields` are
 * compared: the fields of the columns the update assigned, the only ones that can change.
 */
export function diffSql(before: string, after: string, fields: string[]): string {
  return (
    `(SELECT coalesce(jsonb_object_agg(k.key, jsonb_build_object('before', ${before} -> k.key, 'after', ${after} -> k.key)), '{}'::jsonb) ` +
    `FROM unnest(${namesArray(fields)}) AS k(key) WHERE ${after} -> k.key IS DISTINCT FROM ${before} -> k.key)`
  );
}

/** `updatedFields` from a `diff` expression over `fields`: its keys in the order of the collection's fields, as `recordEvent`. */
export function updatedFieldsSql(meta: CollectionMeta, diff: string, fields: string[]): string {
  const all = ['id', ...meta.fields.filter((f) => !f.writeOnly).map((f) => f.name), 'createdAt', 'deletedAt'];
  const order = all.filter((name) => fields.includes(name));
  return `(SELECT jsonb_agg(f.n ORDER BY f.i) FROM unnest(${namesArray(order)}) WITH ORDINALITY AS f(n, i) WHERE ${diff} ? f.n)`;
}
