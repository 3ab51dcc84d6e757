import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SHARED_REDIS } from '../cache/shared-redis';
import { Metrics } from '../metrics/metrics';
import { TooManyRequestsException } from '../errors/error-names';

interface Window {
  name: string;
  points: number;
  limiter: RateLimiterAbstract;
}

/**
 * Rate limits per API key with rate-limiter-flexible: two windows (per second, per minute).
 * With REDIS_URL the counters live in Redis and every instance shares them (an in-memory
 * insurance limiter takes over while Redis is unreachable); without it, in memory.
 * Every authenticated response carries RateLimit-Limit / -Remaining / -Reset for the tightest
 * window; over a limit: 429 TooManyRequestsException with Retry-After.
 * Called by the global ApiKeyGuard once the key is known (one guard per request, not two).
 */
/** Counter states that came with a rejection: the request is over that window's limit. */
const overLimit = new WeakSet<RateLimiterRes>();

function counterState(rejection: unknown): RateLimiterRes {
  if (!(rejection instanceof RateLimiterRes)) throw rejection;
  overLimit.add(rejection);
  return rejection;
}

@Injectable()
export class RateLimiter {
  private readonly windows: Window[];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(SHARED_REDIS) redis: Redis | null,
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: Metrics,
  ) {
    const make = (points: number, duration: number, keyPrefix: string): RateLimiterAbstract =>
      redis
        ? new RateLimiterRedis({
            storeClient: redis,
            points,
            duration,
            keyPrefix,
            insuranceLimiter: new RateLimiterMemory({ points, duration, keyPrefix }),
          })
        : new RateLimiterMemory({ points, duration, keyPrefix });
    const prefix = config.redisKeyPrefix; // keys `crm:rl:s:<apiKeyId>` with the default prefix
    this.windows = [
      {
        name: 'second',
        points: config.rateLimitPerSecond,
        limiter: make(config.rateLimitPerSecond, 1, `${prefix}rl:s`),
      },
      {
        name: 'minute',
        points: config.rateLimitPerMinute,
        limiter: make(config.rateLimitPerMinute, 60, `${prefix}rl:m`),
      },
    ];
  }

  /** Counts one request of `apiKeyId`, sets the RateLimit headers on `response`; throws 429 over a limit. */
  async consume(apiKeyId: string, response: unknown): Promise<void> {
    const key = apiKeyId || 'system';
    // over a limit, rate-limiter-flexible rejects with the counter's state (a RateLimiterRes)
    const results = await Promise.all(this.windows.map((window) => window.limiter.consume(key).catch(counterState)));
    let tightest = 0;
    let limited = -1;
    for (let i = 0; i < results.length; i++) {
      if (limited < 0 && overLimit.has(results[i])) limited = i;
      if (results[i].remainingPoints < results[tightest].remainingPoints) tightest = i;
    }
    const shown = limited >= 0 ? limited : tightest;
    const { points, name } = this.windows[shown];
    const state = results[shown];
    const { httpAdapter } = this.adapterHost;
    const resetSeconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    httpAdapter.setHeader(response, 'RateLimit-Limit', String(points));
    httpAdapter.setHeader(response, 'RateLimit-Remaining', String(Math.max(0, state.remainingPoints)));
    httpAdapter.setHeader(response, 'RateLimit-Reset', String(resetSeconds));
    if (limited >= 0) {
      this.metrics.counter('crm_rate_limit_refusals_total').inc();
      throw new TooManyRequestsException(
        `Rate limit exceeded: ${points} requests per ${name} for this API key`,
        resetSeconds,
      );
    }
  }
}
