import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/app-config';

/** The Redis client shared by every instance's counters (REDIS_URL), or null without it. */
export const SHARED_REDIS = Symbol('SHARED_REDIS');

@Injectable()
class SharedRedisLifecycle implements OnApplicationShutdown {
  constructor(@Inject(SHARED_REDIS) private readonly redis: Redis | null) {}

  onApplicationShutdown(): void {
    this.redis?.disconnect();
  }
}

/**
 * One ioredis client per process for the counters instances share (rate limits, count-cache
 * versions). It never queues commands while Redis is down: callers fall back at once.
 */
@Global()
@Module({
  providers: [
    {
      provide: SHARED_REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Redis | null => {
        if (!config.redisUrl) return null;
        const redis = new Redis(config.redisUrl, {
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          lazyConnect: false,
        });
        const logger = new Logger('Redis');
        redis.on('error', (error) => logger.warn(`redis: ${error.message}`));
        return redis;
      },
    },
    SharedRedisLifecycle,
  ],
  exports: [SHARED_REDIS],
})
export class SharedRedisModule {}
