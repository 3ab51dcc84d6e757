import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { WritePositions } from '../cache/write-positions';
import { Metrics } from '../metrics/metrics';
import { Db } from '../database/db';
import { ImportEvents } from '../events/import-events';
import { FileStorage } from '../files';
import { ActorDirectory } from '../model/actor-directory';
import { CollectionCatalog } from '../model/collection-catalog';
import { RequestActor } from '../model/record';
import { ImportCounts, ImportJobRow, LostClaim } from '../repository/import-job-row';
import { importStatements } from '../repository/import-statements';
import { importRowStatements } from '../repository/import-row-statements';
import { CheckpointContext } from './import-checkpoint';
import { jobView } from './import-job-view';
import type { ImportOptions } from './import-options';
import { Ending, ImportPasses, JobFailure, zero } from './import-passes';

/**
 * Runs one claimed import job (API.md section 17) to its end, with the actor of the key that
 * started it. `atomic=false`: one pass whose checkpoints commit with their errors and counters; a
 * job taken over after a crash resumes after the last committed line. `atomic=true`: a first pass
 * checks every row (its errors kept, nothing written), and only when none was rejected a second
 * pass writes them all in one transaction; a job taken over starts again from its first row. A
 * dry run is the first pass alone. The end: state, counters, message, the summary webhook, the
 * stored file removed.
 */
@Injectable()
export class ImportRunner {
  private readonly logger = new Logger('Imports');

  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly catalog: CollectionCatalog,
    private readonly verifier: ActorDirectory,
    private readonly passes: ImportPasses,
    private readonly importEvents: ImportEvents,
    private readonly positions: WritePositions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** Runs `job` until it ends, or until `stopping()` (the instance shuts down: another resumes it). */
  async run(job: ImportJobRow, stopping: () => boolean): Promise<void> {
    const options = {
      ...(job.options as unknown as ImportOptions),
      operation: job.operation,
      format: job.format,
    } as ImportOptions;
    try {
      const ctx = await this.context(job, options);
      let counts: ImportCounts;
      let ending: Ending;
      if (!options.atomic) {
        ({ counts, ending } = await this.passes.pass(
          job,
          options,
          ctx,
          options.dryRun ? { kind: 'check' } : { kind: 'commit' },
          stopping,
        ));
      } else {
        if (job.resumeLine > 0 || job.counts.read > 0) await importRowStatements.restart(this.db, job.id);
        job = { ...job, resumeLine: 0, counts: zero() };
        ({ counts, ending } = await this.passes.pass(job, options, ctx, { kind: 'check' }, stopping));
        if (ending === 'done' && counts.failed === 0 && !options.dryRun)
          ending = await this.passes.writeAll(job, options, ctx, counts, stopping);
      }
      if (ending === 'stopping') return this.logger.log(`import ${job.id} left to be resumed (shutdown)`);
      await this.end(job, options, counts, ending);
    } catch (error) {
      if (error instanceof LostClaim) return this.logger.warn(error.message);
      if (error instanceof JobFailure || (error as { status?: number }).status === 400) {
        const message = error instanceof JobFailure ? error.message : this.messageOf(error);
        await this.end(job, options, job.counts, 'failed', message);
      } else {
        // the database or the storage went away: the lease lapses and the job is resumed
        this.logger.warn(`import ${job.id} interrupted: ${(error as Error).message}`);
      }
    }
  }

  private messageOf(error: unknown): string {
    const response = (error as { getResponse?: () => unknown }).getResponse?.();
    const messages = (response as { message?: string | string[] } | undefined)?.message;
    return Array.isArray(messages) ? messages.join('; ') : String(messages ?? (error as Error).message);
  }

  private async context(
    job: ImportJobRow,
    options: ImportOptions,
  ): Promise<CheckpointContext & { base: RequestActor }> {
    const meta = this.catalog.get(job.collection);
    if (!meta) throw new JobFailure(`Collection '${job.collection}' no longer exists`);
    const verified = await this.verifier.actorOf(job.apiKeyId ?? '');
    if (!verified.ok) throw new JobFailure(verified.reason);
    const actor: RequestActor = {
      ...verified.actor,
      importContext: { importId: job.id, recordWebhooks: options.webhooks === 'records' },
    };
    return { importId: job.id, meta, actor, operation: options.operation, relations: [], base: verified.actor };
  }

  /** The job's end: its state, counters and message; its stored file removed. */
  private async end(
    job: ImportJobRow,
    options: ImportOptions,
    counts: ImportCounts,
    ending: Ending | 'failed',
    message?: string,
  ): Promise<void> {
    const final = { ...counts };
    let state = ending === 'done' ? 'completed' : ending === 'cancelled' ? 'cancelled' : 'failed';
    if (ending === 'max_errors')
      message = `Stopped at the rejected row number ${options.maxErrors + 1} (max_errors=${options.maxErrors})`;
    if (ending === 'done' && options.atomic && counts.failed > 0) {
      state = 'failed';
      message = `${counts.failed} row${counts.failed === 1 ? '' : 's'} rejected: nothing was written (atomic=true)`;
    }
    if (options.atomic && state !== 'completed') {
      final.unprocessed = final.read - final.failed;
      Object.assign(final, { created: 0, updated: 0, unchanged: 0 });
    }
    // read-your-writes: the key's reads wait for a replica that has the rows, before it can see the end
    if (job.apiKeyId) await this.positions.noteWrite(job.apiKeyId);
    await this.db.transaction(async (tx) => {
      const ended = await importStatements.finish(tx, job.id, job.claim!, state, final, message ?? null);
      await importRowStatements.forgetKeys(tx, job.id);
      // one summary per job to the webhooks subscribed to it (webhooks=summary)
      // (a dry run writes nothing and sends no event)
      if (options.webhooks === 'summary' && state !== 'cancelled' && !options.dryRun)
        await this.importEvents.ended(tx, {
          eventName: state === 'completed' ? 'import.completed' : 'import.failed',
          job: { ...jobView(ended) },
        });
    });
    if (job.objectKey) await this.storage.delete(job.objectKey).catch(() => undefined);
    this.count(state as 'completed' | 'failed' | 'cancelled', options.dryRun ? undefined : final);
    this.logger.log(`import ${job.id} ${state}: ${JSON.stringify(final)}`);
  }

  /** `crm_import_jobs_finished_total` and `crm_import_rows_total` (a dry run's rows were not written). */
  private count(state: 'completed' | 'failed' | 'cancelled', rows?: ImportCounts): void {
    this.metrics.counter('crm_import_jobs_finished_total').inc({ state });
    if (!rows) return;
    const outcomes = this.metrics.counter('crm_import_rows_total');
    for (const outcome of ['created', 'updated', 'unchanged', 'failed'] as const)
      if (rows[outcome] > 0) outcomes.inc({ outcome }, rows[outcome]);
  }
}
