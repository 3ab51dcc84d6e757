import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Db } from '../database/db';
import { TRIM_SQL } from '../repository/change-feed.statements';
import { ChangeFeed } from './change-feed.service';

const BATCH = 5000;
const MAX_BATCHES = 20;

/**
 * Retention of the change feed (`CHANGES_RETENTION_DAYS`): every `CHANGES_TRIM_INTERVAL_MS`, any
 * instance deletes the expired entries in bounded batches and records the highest position
 * deleted, so a token below it answers 410 (instances trimming at once only share the work).
 */
@Injectable()
export class ChangeRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private readonly logger = new Logger('ChangeRetention');

  constructor(
    private readonly db: Db,
    private readonly feed: ChangeFeed,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.trim().catch((error: Error) => this.logger.warn(`trim failed: ${error.message}`));
    }, this.config.changesTrimIntervalMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One trim: the number of entries deleted (one run at a time in this process). */
  trim(): Promise<number> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<number> {
    await this.feed.sequence();
    let total = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const [row] = await this.db.query<{ deleted: number }>(TRIM_SQL, [this.config.changesRetentionDays, BATCH]);
      total += row.deleted;
      if (row.deleted < BATCH) break;
    }
    return total;
  }
}
