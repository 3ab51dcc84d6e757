import { Db } from '../../core/database/db';

/** A delivery of the outbox that is due, with what its POST needs. */
export interface DueDelivery {
  id: string;
  webhookId: string;
  targetUrl: string;
  secret: string;
  payload: Record<string, unknown>;
  attempts: number;
  /** The W3C traceparent of the write that enqueued it (tracing on), or null. */
  traceParent: string | null;
}

/**
 * The statements of the webhook outbox (`webhookDelivery`) beyond the rows the outbox subscriber
 * writes with each change: claiming due deliveries and recording their outcome.
 */
export const deliveryStatements = {
  /**
   * Claims up to `batch` due deliveries with FOR UPDATE SKIP LOCKED (several dispatchers share the
   * work, each row goes to one) and leases them for `leaseSeconds`: a lease that expires makes a
   * delivery due again (a dispatcher that died mid-send).
   */
  claimDue(db: Db, leaseSeconds: number, batch: number): Promise<DueDelivery[]> {
    return db.transaction((tx) =>
      tx.query<DueDelivery>(
        `UPDATE "webhookDelivery" d SET "nextAttemptAt" = now() + make_interval(secs => $1) FROM (
           SELECT d2."id" FROM "webhookDelivery" d2 WHERE d2."status" = 'pending' AND d2."nextAttemptAt" <= now()
           ORDER BY d2."nextAttemptAt" LIMIT $2 FOR UPDATE SKIP LOCKED) due, "webhook" w
         WHERE d."id" = due."id" AND w."id" = d."webhookId"
         RETURNING d."id", d."webhookId", w."targetUrl", w."secret", d."payload", d."attempts", d."traceParent"`,
        [leaseSeconds, batch],
      ),
    );
  },

  /** The pending deliveries and the age of the oldest, in seconds (metrics; the pending rows are those of the due index). */
  async backlog(db: Db): Promise<{ pending: number; oldestSeconds: number }> {
    const [row] = await db.query<{ pending: number; oldestSeconds: number }>(
      `SELECT count(*)::int AS "pending", coalesce(extract(epoch FROM now() - min("createdAt")), 0)::float8 AS "oldestSeconds"
       FROM "webhookDelivery" WHERE "status" = 'pending'`,
    );
    return row;
  },

  async delivered(db: Db, id: string, attempts: number, status: number): Promise<void> {
    await db.query(
      `UPDATE "webhookDelivery" SET "status" = 'delivered', "attempts" = $2, "lastStatus" = $3, "lastError" = NULL, "deliveredAt" = now() WHERE "id" = $1`,
      [id, attempts, status],
    );
  },

  async failed(db: Db, id: string, attempts: number, status: number | null, error: string): Promise<void> {
    await db.query(
      `UPDATE "webhookDelivery" SET "status" = 'failed', "attempts" = $2, "lastStatus" = $3, "lastError" = $4 WHERE "id" = $1`,
      [id, attempts, status, error],
    );
  },

  async retryLater(
    db: Db,
    id: string,
    attempts: number,
    status: number | null,
    error: string,
    delaySeconds: number,
  ): Promise<void> {
    await db.query(
      `UPDATE "webhookDelivery" SET "attempts" = $2, "lastStatus" = $3, "lastError" = $4, "nextAttemptAt" = now() + make_interval(secs => $5) WHERE "id" = $1`,
      [id, attempts, status, error, delaySeconds],
    );
  },
};
