import { Queryable } from '../database/db';
import { toIsoTimestamp } from './record-codec';

/** The counters of a job (API.md section 17). */
export interface ImportCounts {
  read: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  unprocessed: number;
}

export const COUNTERS = ['read', 'created', 'updated', 'unchanged', 'failed', 'unprocessed'] as const;

/** A stored job: the columns of `_imports`. */
export interface ImportJobRow {
  id: string;
  collection: string;
  operation: string;
  format: string;
  options: Record<string, unknown>;
  state: string;
  bytes: number;
  objectKey: string | null;
  apiKeyId: string | null;
  message: string | null;
  resumeLine: number;
  cancelRequested: boolean;
  /** The token of the current hold on a running job (set by `claim`). */
  claim: string | null;
  idempotencyKey: string | null;
  fingerprint: string | null;
  createdAt: unknown;
  startedAt: unknown;
  finishedAt: unknown;
  counts: ImportCounts;
}

/** One rejected row as stored and reported. */
export interface StoredRowError {
  line: number;
  column: string | null;
  code: string;
  message: string;
}

const COLUMNS =
  '"id", "collection", "operation", "format", "options", "state", "bytes"::float8 AS "bytes", "objectKey", "apiKeyId", ' +
  '"message", "resumeLine", "cancelRequested", "claim", "idempotencyKey", "fingerprint", "createdAt", "startedAt", "finishedAt", ' +
  COUNTERS.map((c) => `"${c}"`).join(', ');

function job(row: Record<string, unknown>): ImportJobRow {
  const counts = Object.fromEntries(COUNTERS.map((c) => [c, Number(row[c])])) as unknown as ImportCounts;
  for (const c of COUNTERS) delete row[c];
  return {
    ...(row as unknown as ImportJobRow),
    createdAt: toIsoTimestamp(row.createdAt),
    startedAt: toIsoTimestamp(row.startedAt),
    finishedAt: toIsoTimestamp(row.finishedAt),
    counts,
  };
}

/** The job was taken over by another instance (this one's lease lapsed): it must stop and write nothing more. */
export class LostClaim extends Error {
  constructor(id: string) {
    super(`import ${id} is held by another instance now`);
  }
}

/** The key of the advisory lock that serializes claims (one running job per collection). */
const CLAIM_LOCK = 7_301_730;

/**
 * The statements of the import tables (`_imports`, `_import_errors`, `_import_keys`): jobs
 * created, claimed with a lease, renewed, counted, finished; rows' errors and keys by checkpoint,
 * each a fixed number of statements whatever the rows' number.
 */
export const importStatements = {
  async insert(
    db: Queryable,
    values: Omit<
      ImportJobRow,
      | 'createdAt'
      | 'startedAt'
      | 'finishedAt'
      | 'counts'
      | 'state'
      | 'message'
      | 'resumeLine'
      | 'cancelRequested'
      | 'claim'
    >,
  ): Promise<ImportJobRow | undefined> {
    const rows = await db.query(
      `INSERT INTO "_imports" ("id", "collection", "operation", "format", "options", "bytes", "objectKey", "apiKeyId", "idempotencyKey", "fingerprint") ` +
        `VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [
        values.id,
        values.collection,
        values.operation,
        values.format,
        JSON.stringify(values.options),
        values.bytes,
        values.objectKey,
        values.apiKeyId,
        values.idempotencyKey,
        values.fingerprint,
      ],
    );
    return rows[0] && job(rows[0]);
  },

  async find(db: Queryable, id: string): Promise<ImportJobRow | undefined> {
    const [row] = await db.query(`SELECT ${COLUMNS} FROM "_imports" WHERE "id" = $1`, [id], 'import-find');
    return row && job(row);
  },

  async findByIdempotencyKey(db: Queryable, apiKeyId: string, key: string): Promise<ImportJobRow | undefined> {
    const [row] = await db.query(`SELECT ${COLUMNS} FROM "_imports" WHERE "apiKeyId" = $1 AND "idempotencyKey" = $2`, [
      apiKeyId,
      key,
    ]);
    return row && job(row);
  },

  /** A page of jobs, newest first, after the cursor (createdAt, id); of one key unless `apiKeyId` is null. */
  async page(
    db: Queryable,
    apiKeyId: string | null,
    after: [string, string] | null,
    limit: number,
  ): Promise<ImportJobRow[]> {
    const values: unknown[] = [limit];
    const where: string[] = [];
    if (apiKeyId !== null) where.push(`"apiKeyId" = $${values.push(apiKeyId)}`);
    if (after)
      where.push(`("createdAt", "id") < ($${values.push(after[0])}::timestamptz, $${values.push(after[1])}::uuid)`);
    const rows = await db.query(
      `SELECT ${COLUMNS} FROM "_imports"${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY "createdAt" DESC, "id" DESC LIMIT $1`,
      values,
    );
    return rows.map(job);
  },

  /**
   * Claims the oldest job that may run: queued, or running with an expired lease (its instance
   * stopped), of a collection no live job runs on. Claims are serialized by an advisory lock, so
   * two instances never start two jobs of one collection.
   */
  async claim(
    db: { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> },
    leaseSeconds: number,
  ): Promise<ImportJobRow | undefined> {
    return db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
      const [row] = await tx.query(
        `UPDATE "_imports" SET "state" = 'running', "startedAt" = coalesce("startedAt", now()), ` +
          `"leaseUntil" = now() + make_interval(secs => $1), "claim" = gen_random_uuid() ` +
          `WHERE "id" = (SELECT i."id" FROM "_imports" i WHERE i."state" IN ('queued', 'running') ` +
          `AND (i."state" = 'queued' OR i."leaseUntil" < now()) ` +
          `AND NOT EXISTS (SELECT 1 FROM "_imports" r WHERE r."collection" = i."collection" AND r."state" = 'running' ` +
          `AND r."leaseUntil" >= now() AND r."id" <> i."id") ORDER BY i."createdAt" LIMIT 1 FOR UPDATE SKIP LOCKED) ` +
          `RETURNING ${COLUMNS}`,
        [leaseSeconds],
      );
      return row && job(row);
    });
  },

  /** Renews the lease of a running job held by `claim`; whether it was asked to stop (cancel). Throws when the hold is lost. */
  async renew(db: Queryable, id: string, claim: string, leaseSeconds: number): Promise<boolean> {
    const [row] = await db.query<{ cancelRequested: boolean }>(
      `UPDATE "_imports" SET "leaseUntil" = now() + make_interval(secs => $3) WHERE "id" = $1 AND "claim" = $2 RETURNING "cancelRequested"`,
      [id, claim, leaseSeconds],
      'import-renew',
    );
    if (!row) throw new LostClaim(id);
    return row.cancelRequested;
  },

  /**
   * Sets the counters (and the line the committed rows end at) of a running job held by `claim`,
   * renewing its lease; whether it was asked to stop. Throws when the hold is lost (the caller's
   * transaction then rolls back: an instance that lost its job writes nothing more).
   */
  async progress(
    db: Queryable,
    id: string,
    claim: string,
    counts: ImportCounts,
    resumeLine: number,
    leaseSeconds: number,
  ): Promise<boolean> {
    const [row] = await db.query<{ cancelRequested: boolean }>(
      `UPDATE "_imports" SET ${COUNTERS.map((c, i) => `"${c}" = $${i + 3}`).join(', ')}, "resumeLine" = $9, ` +
        `"leaseUntil" = now() + make_interval(secs => $10) WHERE "id" = $1 AND "claim" = $2 RETURNING "cancelRequested"`,
      [id, claim, ...COUNTERS.map((c) => counts[c]), resumeLine, leaseSeconds],
      'import-progress',
    );
    if (!row) throw new LostClaim(id);
    return row.cancelRequested;
  },

  /** Lets another instance take a job over at once (this one shuts down). */
  async release(db: Queryable, id: string, claim: string): Promise<void> {
    await db.query(
      `UPDATE "_imports" SET "leaseUntil" = now() - interval '1 second' WHERE "id" = $1 AND "claim" = $2 AND "state" = 'running'`,
      [id, claim],
    );
  },

  /** Ends a job held by `claim`: its state, counters and message; the key of its file is dropped. The job after (throws when the hold is lost). */
  async finish(
    db: Queryable,
    id: string,
    claim: string,
    state: string,
    counts: ImportCounts,
    message: string | null,
  ): Promise<ImportJobRow> {
    const [row] = await db.query(
      `UPDATE "_imports" SET "state" = $3, ${COUNTERS.map((c, i) => `"${c}" = $${i + 5}`).join(', ')}, "message" = $4, ` +
        `"finishedAt" = now(), "objectKey" = NULL, "leaseUntil" = NULL, "claim" = NULL WHERE "id" = $1 AND "claim" = $2 RETURNING ${COLUMNS}`,
      [id, claim, state, message, ...COUNTERS.map((c) => counts[c])],
    );
    if (!row) throw new LostClaim(id);
    return job(row);
  },

  /** Asks a job to stop: a queued one is cancelled at once; the job after, undefined when finished. */
  async requestCancel(db: Queryable, id: string): Promise<ImportJobRow | undefined> {
    const [row] = await db.query(
      `UPDATE "_imports" SET "cancelRequested" = true, ` +
        `"state" = CASE WHEN "state" = 'queued' THEN 'cancelled' ELSE "state" END, ` +
        `"finishedAt" = CASE WHEN "state" = 'queued' THEN now() ELSE "finishedAt" END, ` +
        `"unprocessed" = CASE WHEN "state" = 'queued' THEN "read" ELSE "unprocessed" END ` +
        `WHERE "id" = $1 AND "state" IN ('queued', 'running') RETURNING ${COLUMNS}`,
      [id],
    );
    return row && job(row);
  },

  /** Forgets what an earlier attempt of a job that restarts from its first row wrote down. */
  async restart(db: Queryable, id: string): Promise<void> {
    await db.query('DELETE FROM "_import_errors" WHERE "importId" = $1', [id]);
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
      'SELECT "key", "line" FROM "_import_keys" WHERE "importId" = $1 AND "key" = ANY($2::text[])',
      [id, keys],
      'import-keys-find',
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

  /** Deletes jobs finished more than `days` days ago (their errors and keys go with them); how many. */
  async purge(db: Queryable, days: number): Promise<number> {
    const rows = await db.query(
      `DELETE FROM "_imports" WHERE "finishedAt" < now() - make_interval(days => $1) RETURNING 1`,
      [days],
    );
    return rows.length;
  },
};
