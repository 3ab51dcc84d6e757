import { literal, q } from './sql';

/**
 * Exact live-record counts without counting (API.md section 18): the number of live records
 * (`"deletedAt" IS NULL`) of a table is the sum of its rows in `_live_counts`, deltas that triggers
 * append in the transaction of every write (an insert, a delete, a soft delete or a restore, a
 * truncate), whatever statement made it: the API's, an import's, a cascade of foreign keys, a
 * hand-written one. Append-only: concurrent writers never wait on one another for a counter; a
 * compaction sums a table's deltas into one row now and then (live-counts.statements.ts).
 */
export const LIVE_COUNTS = '_live_counts';

/** The name of the trigger that marks a table as counted (the service counts the others with count(*)). */
export const LIVE_COUNT_MARK = 'live_count_inserted';

/** The deltas table and the trigger functions, shared by every counted table (run once, by the migration that adds counts). */
export const LIVE_COUNT_SETUP_SQL = [
  `CREATE TABLE ${q(LIVE_COUNTS)} ("table" text NOT NULL, "delta" bigint NOT NULL)`,
  `CREATE INDEX "IDX_live_counts_table" ON ${q(LIVE_COUNTS)} ("table") INCLUDE ("delta")`,
  // per statement over its transition table: one delta row per INSERT or DELETE statement
  `CREATE FUNCTION crm_live_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
    `INSERT INTO ${q(LIVE_COUNTS)} ("table", "delta") SELECT TG_TABLE_NAME, count(*) FROM added WHERE "deletedAt" IS NULL HAVING count(*) > 0; ` +
    `RETURN NULL; END $$`,
  `CREATE FUNCTION crm_live_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
    `INSERT INTO ${q(LIVE_COUNTS)} ("table", "delta") SELECT TG_TABLE_NAME, -count(*) FROM removed WHERE "deletedAt" IS NULL HAVING count(*) > 0; ` +
    `RETURN NULL; END $$`,
  // per row, only for the rows whose deletedAt goes from null to set or back (a soft delete, a
  // restore): an update of other columns pays nothing
  `CREATE FUNCTION crm_live_count_moved() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
    `INSERT INTO ${q(LIVE_COUNTS)} ("table", "delta") VALUES (TG_TABLE_NAME, CASE WHEN NEW."deletedAt" IS NULL THEN 1 ELSE -1 END); ` +
    `RETURN NULL; END $$`,
  `CREATE FUNCTION crm_live_count_truncated() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
    `DELETE FROM ${q(LIVE_COUNTS)} WHERE "table" = TG_TABLE_NAME; RETURN NULL; END $$`,
];

/**
 * Makes `table` counted: its triggers, then its first delta, its live records counted now. Run in
 * a migration (a transaction): CREATE TRIGGER locks the table against writes until the commit, so
 * no write falls between the count and the triggers. A collection added later calls it in its
 * own migration; until then its lists count with count(*).
 */
export function liveCountTriggersSql(table: string): string[] {
  const on = q(table);
  return [
    `CREATE TRIGGER ${q(LIVE_COUNT_MARK)} AFTER INSERT ON ${on} REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION crm_live_count_inserted()`,
    `CREATE TRIGGER "live_count_deleted" AFTER DELETE ON ${on} REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION crm_live_count_deleted()`,
    `CREATE TRIGGER "live_count_moved" AFTER UPDATE OF "deletedAt" ON ${on} FOR EACH ROW ` +
      `WHEN ((OLD."deletedAt" IS NULL) IS DISTINCT FROM (NEW."deletedAt" IS NULL)) EXECUTE FUNCTION crm_live_count_moved()`,
    `CREATE TRIGGER "live_count_truncated" AFTER TRUNCATE ON ${on} FOR EACH STATEMENT EXECUTE FUNCTION crm_live_count_truncated()`,
    `INSERT INTO ${q(LIVE_COUNTS)} ("table", "delta") SELECT ${literal(table)}, count(*) FROM ${on} WHERE "deletedAt" IS NULL`,
  ];
}

/** Undoes `liveCountTriggersSql`. */
export function dropLiveCountTriggersSql(table: string): string[] {
  const on = q(table);
  return [
    ...[LIVE_COUNT_MARK, 'live_count_deleted', 'live_count_moved', 'live_count_truncated'].map(
      (name) => `DROP TRIGGER ${q(name)} ON ${on}`,
    ),
    `DELETE FROM ${q(LIVE_COUNTS)} WHERE "table" = ${literal(table)}`,
  ];
}
