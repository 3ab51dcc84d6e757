import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../core/config/app-config';
import { Db } from '../../core/database/db';
import { FileStorage } from '../../core/files';
import { Metrics } from '../../core/metrics/metrics';
import { detached } from '../../core/tracing/tracing';
import { fileDeletionStatements } from './file-deletion.statements';

const BATCH = 100;
const LEASE_SECONDS = 60;
/** Retries of a failed removal: 5 s, then doubling, at most an hour apart. */
const retryDelaySeconds = (attempts: number) => Math.min(3600, 5 * 2 ** Math.min(attempts, 10));
/** The last path segment of a key is the attachment's id (objectKeyFor). */
const idOfKey = (key: string) => key.slice(key.lastIndexOf('/') + 1);

/**
 * Removes stored files no attachment needs any more:
 * - the outbox (`fileDeletion`): files of hard-deleted attachments, after the delete committed
 *   (woken by the subscriber, and every FILE_CLEANUP_INTERVAL_MS), retried until removed;
 * - the sweep (every FILE_SWEEP_INTERVAL_MS): files older than FILE_ORPHAN_AGE_MS (1 hour) that
 *   no attachment points to (a crash between the upload and the insert; a cascade from a
 *   deleted person or company), and what interrupted uploads left (storage.removeStaleUploads).
 */
@Injectable()
export class FileCleaner implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('FileCleaner');
  private drainTimer?: NodeJS.Timeout;
  private sweepTimer?: NodeJS.Timeout;
  private draining?: Promise<unknown>;
  private sweeping?: Promise<unknown>;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** `crm_file_deletions_pending`, read on the metrics refresh timer. */
  onModuleInit(): void {
    if (this.config.metrics.port === 0) return;
    const pending = this.metrics.gauge('crm_file_deletions_pending');
    this.metrics.onRefresh('file deletions', async () =>
      pending.set({}, await fileDeletionStatements.pending(this.db)),
    );
  }

  onApplicationBootstrap(): void {
    this.scheduleDrain(0);
    this.scheduleSweep(this.config.files.sweepIntervalMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.drainTimer);
    clearTimeout(this.sweepTimer);
    await Promise.all([this.draining, this.sweeping]);
  }

  /** Asks for a round of the outbox soon (after a commit that added rows), outside that request's trace; always true. */
  wake(): true {
    if (!this.stopped && !this.draining) detached(() => this.scheduleDrain(0))();
    return true;
  }

  private scheduleDrain(delay: number): void {
    clearTimeout(this.drainTimer);
    this.drainTimer = setTimeout(() => {
      this.draining = this.drain()
        .catch((error: Error) => this.logger.warn(`file removal round failed: ${error.message}`))
        .then((busy) => {
          this.draining = undefined;
          if (!this.stopped) this.scheduleDrain(busy === true ? 0 : this.config.files.cleanupIntervalMs);
        });
    }, delay);
    this.drainTimer.unref();
  }

  private scheduleSweep(delay: number): void {
    this.sweepTimer = setTimeout(() => {
      this.sweeping = this.sweep()
        .catch((error: Error) => this.logger.warn(`file sweep failed: ${error.message}`))
        .then(() => {
          this.sweeping = undefined;
          if (!this.stopped) this.scheduleSweep(this.config.files.sweepIntervalMs);
        });
    }, delay);
    this.sweepTimer.unref();
  }

  /** One round of the outbox; true when it found a full batch (more may be due). */
  async drain(): Promise<boolean> {
    const due = await fileDeletionStatements.claimDue(this.db, LEASE_SECONDS, BATCH);
    if (due.length === 0) return false;
    const ids = due.map((row) => row.id);
    try {
      await this.storage.deleteMany(due.map((row) => row.objectKey));
      await fileDeletionStatements.done(this.db, ids);
    } catch (error) {
      const attempts = Math.max(...due.map((row) => row.attempts)) + 1;
      await fileDeletionStatements.retryLater(this.db, ids, (error as Error).message, retryDelaySeconds(attempts));
      throw error;
    }
    return due.length === BATCH;
  }

  /** Removes stored files older than the orphan age that no attachment points to; how many. */
  async sweep(): Promise<number> {
    const olderThan = new Date(Date.now() - this.config.files.orphanAgeMs);
    let removed = 0;
    let batch: string[] = [];
    const flush = async () => {
      const keep = await fileDeletionStatements.withFiles(this.db, batch.map(idOfKey));
      const orphans = batch.filter((key) => !keep.has(idOfKey(key)));
      if (orphans.length > 0) await this.storage.deleteMany(orphans);
      removed += orphans.length;
      batch = [];
    };
    for await (const object of this.storage.list(olderThan)) {
      batch.push(object.key);
      if (batch.length === 500) await flush();
    }
    if (batch.length > 0) await flush();
    const stale = await this.storage.removeStaleUploads(olderThan);
    if (removed + stale > 0)
      this.logger.log(`sweep removed ${removed} orphaned files and ${stale} interrupted uploads`);
    return removed;
  }
}
