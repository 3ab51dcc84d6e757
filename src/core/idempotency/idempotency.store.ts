import {
  BadRequestException,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  UnprocessableEntityException,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Db, Queryable } from '../database/db';
import { idempotencyStatements, IDEMPOTENCY_TTL_HOURS } from '../repository/idempotency-statements';

/** How long a key is remembered (hours): a retry within this window replays the first answer. */
export { IDEMPOTENCY_TTL_HOURS };

/** Visible ASCII (no spaces), 1 to 255 characters: UUIDs, ULIDs and the like. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const PURGE_EVERY_MS = 10 * 60_000;

/** An `Idempotency-Key` of one request, scoped to the API key that sent it. */
export interface IdempotencyRequest {
  apiKeyId: string;
  key: string;
  /** Hash of what the request asks for (route, query, body): a reused key must ask the same. */
  fingerprint: string;
}

/** A remembered answer. */
export interface StoredResponse {
  status: number;
  body: unknown;
}

/** Reads an `Idempotency-Key` header (undefined when absent); 400 when it is malformed or repeated. */
export function parseIdempotencyKey(header: unknown): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !KEY_PATTERN.test(header)) {
    throw new BadRequestException(
      'Idempotency-Key must be one value of 1 to 255 visible ASCII characters (a UUID, for example)',
    );
  }
  return header;
}

/** The idempotency request of a key, scoped to its API key; `parts` (route, parameters, body) make its fingerprint. */
export function idempotencyRequest(
  key: string | undefined,
  apiKeyId: string,
  ...parts: unknown[]
): IdempotencyRequest | undefined {
  if (key === undefined) return undefined;
  const fingerprint = createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  return { apiKeyId, key, fingerprint };
}

/**
 * Idempotency keys in PostgreSQL, so they hold across restarts and instances. `claim` runs first
 * in the write's transaction: it inserts the key (a concurrent request with the same key waits on
 * the row until the first one commits or rolls back) or finds the earlier answer. `complete`
 * stores the answer in the same transaction. A request that fails writes nothing, key included,
 * so it can be retried with the same key. Expired keys are reused in place and purged periodically.
 */
@Injectable()
export class IdempotencyStore implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private timer?: NodeJS.Timeout;

  constructor(private readonly db: Db) {}

  /** Undefined when this request is the first with its key (it goes on); else the answer to replay. */
  async claim(tx: Queryable, request: IdempotencyRequest): Promise<StoredResponse | undefined> {
    if (await idempotencyStatements.claim(tx, request.apiKeyId, request.key, request.fingerprint)) return undefined;
    const stored = await idempotencyStatements.read(tx, request.apiKeyId, request.key);
    if (stored.fingerprint !== request.fingerprint) {
      throw new UnprocessableEntityException(
        'Idempotency-Key was already used for a different request (other route, query or body); use a new key for a new request',
      );
    }
    return { status: stored.status, body: stored.response };
  }

  async complete(tx: Queryable, request: IdempotencyRequest, response: StoredResponse): Promise<void> {
    await idempotencyStatements.complete(tx, request.apiKeyId, request.key, response.status, response.body);
  }

  /** Deletes keys older than the window; returns how many. */
  async purgeExpired(): Promise<number> {
    return idempotencyStatements.purgeExpired(this.db);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.purgeExpired().catch((error: Error) => this.logger.warn(`purge of expired keys failed: ${error.message}`));
    }, PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
