import { LIVE_COUNT_MARK, LIVE_COUNTS } from '../database/live-count-triggers';
import { q } from '../database/sql';

/** The advisory lock of compactions (one instance compacts at a time). */
export const LIVE_COUNTS_LOCK = 0x4c49_5645; // 'LIVE'

/** The live records of a table ($1: its name): the sum of its deltas, and how many rows it summed (an index read of a few rows). */
export const LIVE_COUNT_SQL = `SELECT coalesce(sum("delta"), 0)::float8 AS "count", count(*)::int AS "rows" FROM ${q(LIVE_COUNTS)} WHERE "table" = $1`;

/** Whether a table ($1: its name) is counted (it has the triggers that append its deltas). */
export const COUNTED_SQL = `SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = to_regclass(quote_ident($1)) AND tgname = '${LIVE_COUNT_MARK}') AS "counted"`;

/**
 * Sums the deltas of each table that has several into one row, and answers how many rows it summed ($1: LIVE_COUNTS_LOCK,
 * taken or the compaction skipped: one instance compacts at a time). Exact under concurrent
 * writers and compactions: it deletes the rows its snapshot sees and inserts their sum in the
 * same transaction; a delta committed meanwhile is not among them and stays.
 */
export const COMPACT_LIVE_COUNTS_SQL =
  `WITH lock AS (SELECT pg_try_advisory_xact_lock($1) AS taken), ` +
  `many AS (SELECT "table" FROM ${q(LIVE_COUNTS)} GROUP BY "table" HAVING count(*) > 1), ` +
  `gone AS (DELETE FROM ${q(LIVE_COUNTS)} WHERE (SELECT taken FROM lock) AND "table" IN (SELECT "table" FROM many) RETURNING "table", "delta"), ` +
  `summed AS (INSERT INTO ${q(LIVE_COUNTS)} ("table", "delta") SELECT "table", sum("delta") FROM gone GROUP BY "table" RETURNING 1) ` +
  `SELECT (SELECT count(*) FROM gone)::int AS "rows"`;
