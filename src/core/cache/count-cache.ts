import { Inject, Injectable, Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { SHARED_REDIS } from './shared-redis';

interface Entry {
  version: string;
  count: number;
  at: number;
}

const MAX_ENTRIES = 2_000;

/**
 * Exact `totalCount` without counting every page: the count of one (collection, filter) is kept
 * with the collection's write version, and reused while that version is unchanged. Every
 * acknowledged write changes the versions of the collections it touched before its response
 * leaves, so a client always sees its own writes counted.
 *
 * Versions are random tokens (never reused, even if Redis restarts empty). With REDIS_URL they
 * live in Redis, shared by every instance; without it, in this process, which is exact only for a
 * single instance: the cache is then on for the embedded database and off for PostgreSQL unless
 * COUNT_CACHE=on says there is one instance. If Redis is unreachable, counts are computed. The TTL
 * bounds staleness in the one case versions cannot cover: an instance dying between a commit and
 * its version change (an instance also changes every version when it starts).
 */
@Injectable()
export class CountCache {
  private readonly logger = new Logger('CountCache');
  private readonly entries = new Map<string, Entry>();
  private readonly localVersions = new Map<string, string>();
  readonly enabled: boolean;
  private readonly ttlMs: number;
  private readonly shared: Redis | null;
  /** Redis key of a collection's version: `crm:count-version:people` (REDIS_KEY_PREFIX `crm:`). */
  private readonly versionKey: (collection: string) => string;

  private readonly lookups: ReturnType<Metrics['counter']>;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(SHARED_REDIS) redis: Redis | null, metrics: Metrics) {
    this.lookups = metrics.counter('crm_count_cache_lookups_total');
    this.shared = redis;
    this.versionKey = (collection) => `${config.redisKeyPrefix}count-version:${collection}`;
    this.enabled =
      config.countCache === 'on' || (config.countCache === 'auto' && (!config.databaseUrl || redis !== null));
    this.ttlMs = config.countCacheTtlMs;
  }

  /**
   * The count for `key` (a normalized filter) of `collections[0]`, reading `collections` (its own
   * and those its filter goes through): cached while none of them changed, or computed now.
   */
  async count(collections: readonly string[], key: string, compute: () => Promise<number>): Promise<number> {
    if (!this.enabled) return compute();
    const version = await this.version(collections);
    if (version === undefined) return compute();
    const cacheKey = `${collections.join(',')}\u0000${key}`;
    const hit = this.entries.get(cacheKey);
    if (hit && hit.version === version && Date.now() - hit.at < this.ttlMs) {
      this.entries.delete(cacheKey); // least recently used goes first
      this.entries.set(cacheKey, hit);
      this.lookups.inc({ result: 'hit' });
      return hit.count;
    }
    this.lookups.inc({ result: 'miss' });
    const count = await compute();
    this.entries.delete(cacheKey);
    this.entries.set(cacheKey, { version, count, at: Date.now() });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return count;
  }

  /** After a commit, before answering: the counts of these collections may have changed. */
  async changed(collections: Iterable<string>): Promise<void> {
    if (!this.enabled) return;
    const names = [...new Set(collections)];
    if (!this.shared) {
      for (const name of names) this.localVersions.set(name, randomUUID());
      return;
    }
    try {
      const pipeline = this.shared.pipeline();
      for (const name of names)
        pipeline.set(this.versionKey(name), randomUUID(), 'PX', Math.max(this.ttlMs * 10, 3_600_000));
      await pipeline.exec();
    } catch (error) {
      this.logger.warn(
        `could not publish a write (counts elsewhere stay cached at most ${this.ttlMs} ms): ${(error as Error).message}`,
      );
    }
    // this instance must not trust its own entries for these collections either way
    for (const name of names) this.localVersions.set(name, randomUUID());
  }

  /** Current versions of `collections`, or undefined when they cannot be known (Redis unreachable). */
  private async version(collections: readonly string[]): Promise<string | undefined> {
    const local = collections.map((c) => this.localVersions.get(c) ?? 'initial').join(',');
    if (!this.shared) return local;
    try {
      const shared = await this.shared.mget(collections.map(this.versionKey));
      return `${shared.map((v) => v ?? 'none').join(',')}/${local}`;
    } catch {
      return undefined;
    }
  }
}
