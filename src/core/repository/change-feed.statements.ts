import { literal, q } from '../database/sql';
import type { ResolvedFilter } from '../model/checked-filter';
import type { CollectionMeta } from '../model/collection-meta';
import { filterSql } from '../query/filter-sql';
import { SqlParams } from '../query/sql-params';
import { EVENT_RELATION, eventRecordSql } from './event-rows';

/**
 * The statements of the change feed (API.md section 15), over its own table `_changes` (migration
 * ChangeFeed): `seq` is the write order, `pos` the feed position, handed out in commit order by
 * the sequencer. Every read of the feed first runs the sequencer in a short transaction of its own.
 */

/** The key of the advisory lock that serialises sequencers (any instance). */
export const SEQUENCER_LOCK = 0x4348_4e47; // 'CHNG'

/** The entries a write adds to the feed, as a CTE over its events `ev`: one per event, in the same statement. */
export function changeInsertSql(collections: readonly CollectionMeta[], apiKeyId: string): string {
  const plural = `CASE e."objectName" ${collections.map((m) => `WHEN ${literal(m.def.singular)} THEN ${literal(m.plural)}`).join(' ')} ELSE e."objectName" END`;
  return (
    `INSERT INTO "_changes" ("eventName", "collection", "recordId", "apiKeyId", "record", "updatedFields") ` +
    `SELECT e."name", ${plural}, e."recordId", ${apiKeyId}::uuid, ${eventRecordSql('e')}, e."updatedFields" FROM ${EVENT_RELATION} e`
  );
}

/** The channel instances LISTEN on: a notification says "new entries were committed, read the feed". */
export const CHANGES_CHANNEL = 'crm_changes';

/**
 * Notifies every instance's open streams. Sent after a write committed, on its own and at most a
 * few times a second per instance (ChangeSignal): a NOTIFY inside the write's transaction would
 * make PostgreSQL serialise the commits of every writer on its notification queue.
 */
export const NOTIFY_CHANGES_SQL = `SELECT pg_notify('${CHANGES_CHANNEL}', '')`;

/** Takes the sequencer lock for the rest of the transaction (run first: the next statement's snapshot is taken after it). */
export const LOCK_SEQUENCER_SQL = `SELECT pg_advisory_xact_lock(${SEQUENCER_LOCK})`;

/**
 * Gives a position to every entry visible now that has none, in write order (`seq`). Only
 * committed entries are visible; positions go up from one run to the next (the lock), so an entry
 * committed late lands after every position already handed out. With `$1` a `pg_snapshot`, only
 * the entries visible in it (see tokenOfSnapshotSql).
 */
export function sequenceSql(inSnapshot = false): string {
  const visible = inSnapshot ? ` AND pg_visible_in_snapshot("xid", $1::pg_snapshot)` : '';
  return (
    `UPDATE "_changes" c SET "pos" = n."pos" FROM (SELECT s."seq", nextval('"_changes_pos_seq"') AS "pos" FROM ` +
    `(SELECT "seq" FROM "_changes" WHERE "pos" IS NULL${visible} ORDER BY "seq" FOR UPDATE) s) n WHERE c."seq" = n."seq"`
  );
}

const TRIMMED = `(SELECT "trimmedPos" FROM "_changes_state" WHERE "id" = 1)`;

/** The current position: the last one handed out (0 on an empty feed). */
export const HEAD_SQL = `SELECT coalesce((SELECT max("pos") FROM "_changes"), ${TRIMMED}, 0) AS "pos"`;

/**
 * The position of a snapshot `$1` (after sequenceSql(true) in the same transaction): every entry
 * at or before it is visible in the snapshot. Entries committed after the snapshot that were
 * already given a position cap it just below the first of them (the ones of the snapshot after it
 * are then replayed: the same record states, in order).
 */
export const TOKEN_OF_SNAPSHOT_SQL =
  `SELECT coalesce((SELECT min("pos") - 1 FROM "_changes" WHERE "pos" IS NOT NULL AND "xid" >= pg_snapshot_xmin($1::pg_snapshot) ` +
  `AND NOT pg_visible_in_snapshot("xid", $1::pg_snapshot)), (SELECT max("pos") FROM "_changes"), ${TRIMMED}, 0) AS "pos"`;

/** Which entries a reader may see: every one, or those of these collections (each with its row filter, if any). */
export type ChangeSelection = 'all' | { meta: CollectionMeta; rows?: ResolvedFilter }[];

/**
 * The stored record (API shape: composites as objects) as a row of the collection's table, so the
 * row filter compiles as it does for the table itself (its columns, unqualified).
 */
function recordRowSql(meta: CollectionMeta, record: string): string {
  const pairs = meta.columns.map((c) => {
    const value = c.sub
      ? `${record} -> ${literal(c.field.name)} -> ${literal(c.sub.name)}`
      : `${record} -> ${literal(c.field.name)}`;
    return `${literal(c.column)}, ${value}`;
  });
  for (const column of ['id', 'createdAt', 'updatedAt', 'deletedAt'])
    pairs.push(`${literal(column)}, ${record} -> ${literal(column)}`);
  const pieces: string[] = [];
  for (let i = 0; i < pairs.length; i += 40) pieces.push(`jsonb_build_object(${pairs.slice(i, i + 40).join(', ')})`);
  return `jsonb_populate_record(NULL::${q(meta.table)}, ${pieces.join(' || ')})`;
}

function selectionSql(selection: ChangeSelection, params: SqlParams): string {
  if (selection === 'all') return 'true';
  const open = selection.filter((s) => !s.rows).map((s) => literal(s.meta.plural));
  const conditions = open.length ? [`c."collection" IN (${open.join(', ')})`] : [];
  for (const { meta, rows } of selection) {
    if (!rows) continue;
    const row = `EXISTS (SELECT 1 FROM ${recordRowSql(meta, 'c."record"')} AS ${q(meta.table)} WHERE ${filterSql(meta, rows, params)})`;
    conditions.push(`(c."collection" = ${literal(meta.plural)} AND ${row})`);
  }
  return conditions.length ? `(${conditions.join(' OR ')})` : 'false';
}

/** One row of a page: the entry, or none; with the head and trimmed positions of the same snapshot. */
export interface ChangeRow {
  head: number | null;
  trimmed: number;
  pos: number | null;
  eventName: string;
  collection: string;
  recordId: string;
  occurredAt: string;
  apiKeyId: string | null;
  record: Record<string, unknown> | null;
  updatedFields: string[] | null;
}

/**
 * A page of the feed after `since` (in position order, `limit` entries at most), in one statement
 * that always answers at least one row: the head and the trimmed position, then the entries (none
 * when `since` is older than the trimmed position).
 */
export function changesPageSql(selection: ChangeSelection, since: number, limit: number) {
  const params = new SqlParams();
  const sinceParam = params.add(since);
  const limitParam = params.add(limit);
  const where = selectionSql(selection, params);
  const text =
    `SELECT h."head", h."trimmed", p.* FROM (SELECT (SELECT max("pos") FROM "_changes") AS "head", ${TRIMMED} AS "trimmed") h ` +
    `LEFT JOIN LATERAL (SELECT c."pos", c."eventName", c."collection", c."recordId", ` +
    `to_char(c."occurredAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "occurredAt", c."apiKeyId", ` +
    `CASE WHEN c."eventName" LIKE '%.destroyed' THEN NULL ELSE c."record" END AS "record", c."updatedFields" ` +
    `FROM "_changes" c WHERE c."pos" > ${sinceParam}::bigint AND ${sinceParam}::bigint >= h."trimmed" AND ${where} ` +
    `ORDER BY c."pos" LIMIT ${limitParam}::int) p ON true ORDER BY p."pos"`;
  return { text, values: params.values };
}

/**
 * Deletes, in one bounded batch, entries older than the retention that have a position, and
 * raises the trimmed position to the highest one deleted: a token below it is gone (410).
 * Answers the number deleted.
 */
export const TRIM_SQL =
  `WITH gone AS (DELETE FROM "_changes" WHERE "seq" IN (SELECT "seq" FROM "_changes" WHERE "occurredAt" < now() - make_interval(days => $1::int) ` +
  `AND "pos" IS NOT NULL ORDER BY "occurredAt" LIMIT $2::int) RETURNING "pos"), ` +
  `raised AS (UPDATE "_changes_state" SET "trimmedPos" = GREATEST("trimmedPos", (SELECT max("pos") FROM gone)) ` +
  `WHERE "id" = 1 AND EXISTS (SELECT 1 FROM gone) RETURNING 1) SELECT (SELECT count(*) FROM gone)::int AS "deleted"`;
