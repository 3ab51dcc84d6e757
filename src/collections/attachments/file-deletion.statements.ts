import { Db } from '../../core/database/db';

/** A stored file the outbox says to remove. */
export interface DueDeletion {
  id: string;
  objectKey: string;
  attempts: number;
}

/** The statements of the `fileDeletion` outbox and of the sweep of files no attachment points to. */
export const fileDeletionStatements = {
  /**
   * Claims up to `batch` due rows (FOR UPDATE SKIP LOCKED: several instances share the work) and
   * leases them for `leaseSeconds`: a cleaner that died mid-way makes them due again.
   */
  claimDue(db: Db, leaseSeconds: number, batch: number): Promise<DueDeletion[]> {
    return db.transaction((tx) =>
      tx.query<DueDeletion>(
        `UPDATE "fileDeletion" f SET "nextAttemptAt" = now() + make_interval(secs => $1) FROM (
           SELECT f2."id" FROM "fileDeletion" f2 WHERE f2."nextAttemptAt" <= now()
           ORDER BY f2."nextAttemptAt" LIMIT $2 FOR UPDATE SKIP LOCKED) due
         WHERE f."id" = due."id" RETURNING f."id", f."objectKey", f."attempts"`,
        [leaseSeconds, batch],
      ),
    );
  },

  /** Files waiting to be removed (metrics). */
  async pending(db: Db): Promise<number> {
    const [row] = await db.query<{ pending: number }>(`SELECT count(*)::int AS "pending" FROM "fileDeletion"`);
    return row.pending;
  },

  async done(db: Db, ids: string[]): Promise<void> {
    await db.query(`DELETE FROM "fileDeletion" WHERE "id" = ANY($1::uuid[])`, [ids]);
  },

  async retryLater(db: Db, ids: string[], error: string, delaySeconds: number): Promise<void> {
    await db.query(
      `UPDATE "fileDeletion" SET "attempts" = "attempts" + 1, "lastError" = $2, "nextAttemptAt" = now() + make_interval(secs => $3) WHERE "id" = ANY($1::uuid[])`,
      [ids, error.slice(0, 1000), delaySeconds],
    );
  },

  /** Which of `ids` are attachments with a stored file (live or soft-deleted: both keep their file). */
  async withFiles(db: Db, ids: string[]): Promise<Set<string>> {
    const rows = await db.query<{ id: string }>(
      `SELECT "id" FROM "attachment" WHERE "id" = ANY($1::uuid[]) AND "checksum" IS NOT NULL`,
      [ids],
    );
    return new Set(rows.map((row) => row.id));
  },
};
