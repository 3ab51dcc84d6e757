import { Queryable } from '../database/db';

/** Hours an idempotency key is remembered. */
export const IDEMPOTENCY_TTL_HOURS = 24;

/** A key's stored request and answer (status 0 until the first request completes). */
export interface StoredKey {
  fingerprint: string;
  status: number;
  response: unknown;
}

/**
 * The statements of the `idempotencyKey` table: claim a key in the transaction of a write (a
 * concurrent request with the same key waits on the row), read the first answer, store it, purge
 * expired keys. Named statements: their texts never change.
 */
export const idempotencyStatements = {
  /** Inserts the key, or takes over an expired one; true when this request claimed it. */
  async claim(tx: Queryable, apiKeyId: string, key: string, fingerprint: string): Promise<boolean> {
    const claimed = await tx.query(
      `INSERT INTO "idempotencyKey" ("apiKeyId", "key", "fingerprint", "status", "response") VALUES ($1, $2, $3, 0, 'null')
       ON CONFLICT ("apiKeyId", "key") DO UPDATE SET "fingerprint" = EXCLUDED."fingerprint", "createdAt" = now()
       WHERE "idempotencyKey"."createdAt" < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours'
       RETURNING 1`,
      [apiKeyId, key, fingerprint],
      'idempotency-claim',
    );
    return claimed.length > 0;
  },

  async read(tx: Queryable, apiKeyId: string, key: string): Promise<StoredKey> {
    const [stored] = await tx.query<StoredKey>(
      'SELECT "fingerprint", "status", "response" FROM "idempotencyKey" WHERE "apiKeyId" = $1 AND "key" = $2',
      [apiKeyId, key],
      'idempotency-read',
    );
    return stored;
  },

  async complete(tx: Queryable, apiKeyId: string, key: string, status: number, body: unknown): Promise<void> {
    await tx.query(
      'UPDATE "idempotencyKey" SET "status" = $3, "response" = $4 WHERE "apiKeyId" = $1 AND "key" = $2',
      [apiKeyId, key, status, JSON.stringify(body)],
      'idempotency-complete',
    );
  },

  /** Deletes keys older than the window; how many. */
  async purgeExpired(db: Queryable): Promise<number> {
    const rows = await db.query(
      `DELETE FROM "idempotencyKey" WHERE "createdAt" < now() - interval '${IDEMPOTENCY_TTL_HOURS} hours' RETURNING 1`,
    );
    return rows.length;
  },
};
