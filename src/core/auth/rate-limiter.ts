import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SHARED_REDIS } from '../cache/shared-redis';
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
@Injectable()
export class RateLimiter {
  private readonly windows: Window[];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(SHARED_REDIS) redis: Redis | null,
    private readonly adapterHost: HttpAdapterHost,
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
    this.windows = [
      { name: 'second', points: config.rateLimitPerSecond, limiter: make(config.rateLimitPerSecond, 1, 'crm:rl:s') },
      { name: 'minute', points: config.rateLimitPerMinute, limiter: make(config.rateLimitPerMinute, 60, 'crm:rl:m') },
    ];
  }

  /** Counts one request of `apiKeyId`, sets the RateLimit headers on `response`; throws 429 over a limit. */
  async consume(apiKeyId: string, response: unknown): Promise<void> {
    const outcomes = await Promise.all(
      this.windows.map((window) =>
        window.limiter.consume(apiKeyId || 'system').then(
          (res) => ({ window, res, limited: false }),
          (res: unknown) => {
            if (res instanceof RateLimiterRes) return { window, res, limited: true };
            throw res;
          },
        ),
      ),
    );
    const limited = outcomes.find((o) => o.limited);
    const tightest = limited ?? outcomes.reduce((a, b) => (b.res.remainingPoints < a.res.remainingPoints ? b : a));
    const { httpAdapter } = this.adapterHost;
    const resetSeconds = Math.max(1, Math.ceil(tightest.res.msBeforeNext / 1000));
    httpAdapter.setHeader(response, 'RateLimit-Limit', String(tightest.window.points));
    httpAdapter.setHeader(response, 'RateLimit-Remaining', String(Math.max(0, tightest.res.remainingPoints)));
    httpAdapter.setHeader(response, 'RateLimit-Reset', String(resetSeconds));
    if (limited) {
      throw new TooManyRequestsException(
        `Rate limit exceeded: ${limited.window.points} requests per ${limited.window.name} for this API key`,
        resetSeconds,
      );
    }
  }
}
