import { Db, Queryable } from '../database/db';
import { COLUMNS, ImportCounts, ImportJobRow, job, LostClaim, NEW_JOB, NewImportJob, COUNTERS } from './import-job-row';

/** The key of the advisory lock that serializes claims (one running job per collection). */
const CLAIM_LOCK = 7_301_730;

/**
 * The statements of the import jobs (`_imports`): created, claimed with a lease and a claim token,
 * renewed, counted, finished, purged. Their rows' errors and keys: import-row-statements.ts.
 */
export const importStatements = {
  /** A new queued job; undefined when its idempotency key was already used by the key. */
  async insert(db: Queryable, values: NewImportJob): Promise<ImportJobRow | undefined> {
    const rows = await db.query(
      `INSERT INTO "_imports" (${NEW_JOB.map((c) => `"${c}"`).join(', ')}) VALUES (${NEW_JOB.map((_, i) => `$${i + 1}`).join(', ')}) ` +
        `ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      NEW_JOB.map((c) => (c === 'options' ? JSON.stringify(values.options) : values[c])),
    );
    return rows[0] && job(rows[0]);
  },

  /** Jobs waiting or under way, by state (metrics: the partial index of active jobs). */
  async activeCounts(db: Queryable): Promise<{ state: 'queued' | 'running'; jobs: number }[]> {
    return db.query(
      `SELECT "state", count(*)::int AS "jobs" FROM "_imports" WHERE "state" IN ('queued', 'running') GROUP BY "state"`,
    );
  },

  async find(db: Queryable, id: string): Promise<ImportJobRow | undefined> {
    const [row] = await db.query(`SELECT ${COLUMNS} FROM "_imports" WHERE "id" = $1`, [id], 'import-find');
    return row && job(row);
  },

  async findByIdempotencyKey(db: Queryable, apiKeyId: string, key: string): Promise<ImportJobRow | undefined> {
    const sql = `SELECT ${COLUMNS} FROM "_imports" WHERE "apiKeyId" = $1 AND "idempotencyKey" = $2`;
    const [row] = await db.query(sql, [apiKeyId, key]);
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
  async claim(db: Db, leaseSeconds: number): Promise<ImportJobRow | undefined> {
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

  /** Asks a job to stop: a queued one is cancelled at once (its file's key dropped); the job after, undefined when finished. */
  async requestCancel(db: Queryable, id: string): Promise<ImportJobRow | undefined> {
    const queued = (then: string, otherwise: string) =>
      `CASE WHEN "state" = 'queued' THEN ${then} ELSE ${otherwise} END`;
    const [row] = await db.query(
      `UPDATE "_imports" SET "cancelRequested" = true, "state" = ${queued(`'cancelled'`, '"state"')}, ` +
        `"finishedAt" = ${queued('now()', '"finishedAt"')}, "objectKey" = ${queued('NULL', '"objectKey"')} ` +
        `WHERE "id" = $1 AND "state" IN ('queued', 'running') RETURNING ${COLUMNS}`,
      [id],
    );
    return row && job(row);
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
