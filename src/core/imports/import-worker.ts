import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Db } from '../database/db';
import { importStatements } from '../repository/import-statements';
import { detached, inSpan, SpanKind } from '../tracing/tracing';
import { ImportRunner } from './import-runner';

/** How often an idle instance looks for a job to run (or one whose instance stopped). */
const POLL_MS = 1000;
/** How often finished jobs past IMPORT_RETENTION_DAYS are deleted. */
const PURGE_MS = 3600_000;

/**
 * Runs import jobs in the background (API.md section 17): claims the oldest job that may run
 * (`FOR UPDATE SKIP LOCKED`, one running job per collection across instances), runs it, and
 * looks again; woken at once when a job is queued on this instance, else every second. A job
 * whose instance stopped is taken over once its lease lapses. At shutdown the running job stops at
 * its next checkpoint and its lease is released, so another instance resumes it at once.
 */
@Injectable()
export class ImportWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Imports');
  private timer?: NodeJS.Timeout;
  private purgeTimer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly runner: ImportRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
    this.purgeTimer = setInterval(() => {
      importStatements
        .purge(this.db, this.config.importRetentionDays)
        .catch((error: Error) => this.logger.warn(`import purge failed: ${error.message}`));
    }, PURGE_MS);
    this.purgeTimer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.purgeTimer);
    await this.running;
  }

  /** Looks for a job now (one was just queued); outside the trace of the request that queued it (tracing on). */
  wake(): void {
    if (!this.stopped && !this.running) detached(() => this.schedule(0))();
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.round()
        .catch((error: Error) => {
          this.logger.warn(`import round failed: ${error.message}`);
          return false;
        })
        .then((ran) => {
          this.running = undefined;
          if (!this.stopped) this.schedule(ran ? 0 : POLL_MS);
        });
    }, delay);
    this.timer.unref();
  }

  /** Claims and runs one job; whether there was one. */
  private async round(): Promise<boolean> {
    const job = await importStatements.claim(this.db, this.config.importLeaseSeconds);
    if (!job) return false;
    // the run continues the trace of the request that queued the job (a span per run: a job taken
    // over after a crash or a shutdown has one per instance that ran it); its statements and the
    // webhooks of its records are in it
    const attributes = {
      'crm.import.id': job.id,
      'crm.import.collection': job.collection,
      'crm.import.operation': job.operation,
    };
    await inSpan('import run', SpanKind.CONSUMER, job.traceParent, attributes, () =>
      this.runner.run(job, () => this.stopped),
    );
    if (this.stopped) await importStatements.release(this.db, job.id, job.claim!).catch(() => undefined);
    return true;
  }
}
