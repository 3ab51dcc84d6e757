import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Replicas } from '../database/replicas';
import { SHARED_REDIS } from './shared-redis';

/** Keeps the larger of the stored and the given position (two instances may note out of order). */
const NOTE_MAX_LUA = `local cur = tonumber(redis.call('GET', KEYS[1]))
if not cur or tonumber(ARGV[1]) > cur then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 1`;

/**
 * Read-your-writes per API key (API.md section 19): the primary's WAL position after each write
 * request of a key, taken after its COMMIT, kept here and in Redis (every instance reads it) for
 * longer than a healthy replica may lag. A read request of the key goes to a replica only once
 * that replica has replayed it (Replicas.target). Where Redis cannot answer, the key's reads go to
 * the primary: a stale read is never the fallback.
 */
@Injectable()
export class WritePositions {
  private readonly local = new Map<string, { position: number; until: number }>();
  private readonly ttlMs: number;

  constructor(
    private readonly replicas: Replicas,
    @Inject(SHARED_REDIS) private readonly redis: Redis | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    // after the longest lag a healthy replica may have, every one of them holds the write
    this.ttlMs = 2 * config.database.replicaMaxLagMs + 10_000;
  }

  /** After a write request of `apiKeyId` committed: its position is what the key must see from now on. */
  async noteWrite(apiKeyId: string): Promise<void> {
    if (!this.replicas.enabled) return;
    let position: number;
    try {
      position = await this.replicas.primaryPosition();
    } catch {
      position = Number.MAX_VALUE; // unknown: the key reads from the primary until the entry expires
    }
    const until = Date.now() + this.ttlMs;
    const known = this.local.get(apiKeyId);
    if (!known || known.position < position || known.until < Date.now()) this.local.set(apiKeyId, { position, until });
    if (this.local.size > 100_000) this.forgetExpired();
    await this.redis
      ?.eval(NOTE_MAX_LUA, 1, this.key(apiKeyId), String(position), String(this.ttlMs))
      .catch(() => undefined);
  }

  /** The position a read of `apiKeyId` must see (0: none to wait for). */
  async required(apiKeyId: string): Promise<number> {
    const known = this.local.get(apiKeyId);
    const local = known && known.until > Date.now() ? known.position : 0;
    if (!this.redis) return local;
    try {
      const shared = Number((await this.redis.get(this.key(apiKeyId))) ?? 0);
      return Math.max(local, Number.isFinite(shared) ? shared : Number.MAX_VALUE);
    } catch {
      return Number.MAX_VALUE;
    }
  }

  private key(apiKeyId: string): string {
    return `${this.config.redisKeyPrefix}wal:${apiKeyId}`;
  }

  private forgetExpired(): void {
    const now = Date.now();
    for (const [key, entry] of this.local) if (entry.until < now) this.local.delete(key);
  }
}
