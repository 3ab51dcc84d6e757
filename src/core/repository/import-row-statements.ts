import { Queryable } from '../database/db';

/** One rejected row as stored and reported. */
export interface StoredRowError {
  line: number;
  column: string | null;
  code: string;
  message: string;
}

/**
 * The statements of the rows of import jobs: their errors (`_import_errors`, the report in line
 * order) and the keys they named (`_import_keys`, for duplicates within a file), each written or
 * read once per checkpoint whatever the rows' number.
 */
export const importRowStatements = {
  /** Forgets what an earlier attempt of a job that restarts from its first row wrote down. */
  async restart(db: Queryable, id: string): Promise<void> {
    await db.query('DELETE FROM "_import_errors" WHERE "importId" = $1', [id]);
    await importRowStatements.forgetKeys(db, id);
  },

  /** Forgets the keys of a job's rows: once it ends nothing needs them (they are read by key, not by job). */
  async forgetKeys(db: Queryable, id: string): Promise<void> {
    await db.query('DELETE FROM "_import_keys" WHERE "importId" = $1', [id]);
  },

  /** Appends rejected rows (one statement). */
  async addErrors(db: Queryable, id: string, errors: StoredRowError[]): Promise<void> {
    if (errors.length === 0) return;
    await db.query(
      `INSERT INTO "_import_errors" ("importId", "line", "seq", "column", "code", "message") ` +
        `SELECT $1, (e.v ->> 'line')::int, row_number() OVER (PARTITION BY e.v ->> 'line' ORDER BY e.n), e.v ->> 'column', ` +
        `e.v ->> 'code', e.v ->> 'message' FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(v, n)`,
      [id, JSON.stringify(errors)],
      'import-errors-add',
    );
  },

  /** A page of a job's rejected rows in line order, after `(line, seq)`. */
  errorsAfter(
    db: Queryable,
    id: string,
    after: [number, number],
    limit: number,
  ): Promise<(StoredRowError & { seq: number })[]> {
    return db.query(
      `SELECT "line", "seq", "column", "code", "message" FROM "_import_errors" WHERE "importId" = $1 AND ("line", "seq") > ($2, $3) ` +
        `ORDER BY "line", "seq" LIMIT $4`,
      [id, after[0], after[1], limit],
      'import-errors-page',
    );
  },

  /** The lines of the earlier rows of the job that named any of `keys` (one statement). */
  async earlierKeys(db: Queryable, id: string, keys: string[]): Promise<Map<string, number>> {
    if (keys.length === 0) return new Map();
    const rows = await db.query<{ key: string; line: number }>(
      // one index probe per key: a LATERAL with LIMIT is never turned into a scan of the job's keys,
      // which the planner chose for `"key" = ANY(...)` without fresh statistics (a cost growing with
      // the job); never prepared, as a plan cached while the table was small would stay as it grows
      'SELECT w."key", k."line" FROM unnest($2::text[]) AS w("key") ' +
        'CROSS JOIN LATERAL (SELECT "line" FROM "_import_keys" WHERE "key" = w."key" AND "importId" = $1 LIMIT 1) AS k',
      [id, keys],
    );
    return new Map(rows.map((r) => [r.key, r.line]));
  },

  /** Remembers the keys rows of a checkpoint named (one statement). */
  async addKeys(db: Queryable, id: string, keys: { key: string; line: number }[]): Promise<void> {
    if (keys.length === 0) return;
    await db.query(
      `INSERT INTO "_import_keys" ("importId", "key", "line") SELECT $1, k."key", k."line" ` +
        `FROM jsonb_to_recordset($2::jsonb) AS k("key" text, "line" int) ON CONFLICT DO NOTHING`,
      [id, JSON.stringify(keys)],
      'import-keys-add',
    );
  },
};
