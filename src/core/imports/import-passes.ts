import { Inject, Injectable } from '@nestjs/common';
import { CountCache } from '../cache/count-cache';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Db, Queryable } from '../database/db';
import { RecordEventBus } from '../events/event-bus';
import { FileStorage } from '../files';
import { CollectionCatalog } from '../model/collection-catalog';
import { RequestActor } from '../model/record';
import { ImportCounts, ImportJobRow } from '../repository/import-job-row';
import { importStatements } from '../repository/import-statements';
import { importRowStatements } from '../repository/import-row-statements';
import { CheckpointContext } from './import-checkpoint';
import { GrowingTable } from './import-statistics';
import { ImportCheckpoints } from './import-checkpoints';
import { planColumns, planObjectRows } from './import-columns';
import type { ImportOptions } from './import-options';
import { openImportReader } from './import-reader';
import { convertRow } from './import-row';
import type { ImportRow, RowError } from './import-types';

/** Rows a checkpoint holds at most (API.md section 17 allows up to 10,000): about a second of work, so the counters are at most that old. */
export const CHECKPOINT_ROWS = 1000;

/** How a pass over the file treats its checkpoints. */
export type Mode =
  /** atomic=false: each checkpoint committed with its errors, keys and counters (the job resumes after the last). */
  | { kind: 'commit' }
  /** checks only (a dry run, the first pass of an atomic job): what a checkpoint writes is rolled back, its errors and keys kept. */
  | { kind: 'check' }
  /** the second pass of an atomic job: every checkpoint in the one transaction `tx`. */
  | { kind: 'write'; tx: Queryable };

export type Ending = 'done' | 'cancelled' | 'max_errors' | 'stopping';

export const zero = (): ImportCounts => ({ read: 0, created: 0, updated: 0, unchanged: 0, failed: 0, unprocessed: 0 });

/** A job that cannot go on: it ends `failed` with this message. */
export class JobFailure extends Error {}

/** Rows the writing pass of an atomic job could not write: its transaction rolls back. */
class WriteRefused extends Error {
  constructor(readonly errors: RowError[]) {
    super(`${errors.length} rows refused`);
  }
}

/**
 * The passes of an import job over its stored file (API.md section 17): the file read as a stream,
 * each row converted and checked in Node, written in checkpoints of CHECKPOINT_ROWS by the
 * checkpoint writer as the mode says (committed one by one, checked and rolled back, or all in the
 * writing transaction of an atomic job), the job's counters and resume line kept with each.
 */
@Injectable()
export class ImportPasses {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly catalog: CollectionCatalog,
    private readonly checkpoints: ImportCheckpoints,
    private readonly counts: CountCache,
    private readonly events: RecordEventBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The cached counts of the collection and of those its events write to, once a checkpoint committed. */
  private changed(ctx: CheckpointContext): Promise<void> {
    return this.counts.changed([ctx.meta.plural, ...this.events.writes]);
  }

  /** One pass over the file, after `job.resumeLine`, with the counters so far. */
  async pass(
    job: ImportJobRow,
    options: ImportOptions,
    ctx: CheckpointContext & { base: RequestActor },
    mode: Mode,
    stopping: () => boolean,
  ): Promise<{ counts: ImportCounts; ending: Ending }> {
    const counts = { ...job.counts };
    const reader = await openImportReader(await this.storage.get(job.objectKey!), options);
    const plan = reader.header
      ? planColumns(ctx.meta, this.catalog, reader.header, ctx.base.access)
      : planObjectRows(ctx.meta, ctx.base.access);
    ctx.relations = plan.relations;
    const on = mode.kind === 'write' ? mode.tx : this.db;
    const growing = mode.kind === 'check' ? undefined : await GrowingTable.of(on, ctx.meta.table);
    let ending = 'done' as Ending;
    let batch: ImportRow[] = [];
    let created = counts.created;
    const flush = async (): Promise<Ending> => {
      const rows = batch;
      batch = [];
      ending = await this.flush(job, options, ctx, mode, rows, counts);
      await growing?.wrote(on, counts.created - created);
      created = counts.created;
      return ending;
    };
    for await (const raw of reader.rows) {
      if (raw.line <= job.resumeLine) continue;
      counts.read++;
      if (ending !== 'done') {
        counts.unprocessed++;
        continue;
      }
      batch.push(
        convertRow(ctx.meta, plan, raw, {
          operation: options.operation,
          blank: options.blank,
          maxBodyDepth: this.config.maxBodyDepth,
        }),
      );
      if (batch.length >= CHECKPOINT_ROWS) {
        const now = await flush();
        if (now === 'done' && stopping()) return { counts, ending: 'stopping' };
        // past max_errors or a cancel the rest is read and counted as unprocessed (the writing pass
        // of an atomic job has the first pass's counters: it stops at once)
        if (now === 'cancelled' && mode.kind === 'write') return { counts, ending: now };
      }
    }
    if (batch.length > 0 && ending === 'done') await flush();
    else counts.unprocessed += batch.length;
    return { counts, ending };
  }

  /** Writes one checkpoint as the mode says; adds what it did to `counts`; how the pass goes on. */
  private async flush(
    job: ImportJobRow,
    options: ImportOptions,
    ctx: CheckpointContext,
    mode: Mode,
    rows: ImportRow[],
    counts: ImportCounts,
  ): Promise<Ending> {
    const lastLine = rows[rows.length - 1].line;
    const limit = options.atomic ? Infinity : options.maxErrors - counts.failed;
    const once = async (tx: Queryable) => {
      const out = await this.checkpoints.write(tx, ctx, rows, mode.kind === 'check', limit);
      const after = this.add(counts, out);
      if (mode.kind === 'write') return { out, after, cancelled: false };
      await importRowStatements.addErrors(tx, job.id, out.errors);
      if (mode.kind === 'check' || !options.atomic) await importRowStatements.addKeys(tx, job.id, out.keys);
      const cancelled = await importStatements.progress(
        tx,
        job.id,
        job.claim!,
        after,
        out.stoppedAt ?? lastLine,
        this.config.importLeaseSeconds,
      );
      return { out, after, cancelled };
    };
    const { out, after, cancelled } = mode.kind === 'write' ? await once(mode.tx) : await this.db.transaction(once);
    if (mode.kind === 'commit') await this.changed(ctx);
    // the writing pass of an atomic job met a row its check did not refuse (the records changed
    // meanwhile, or the database refused a value): nothing is written, the row is reported
    if (mode.kind === 'write' && out.errors.length > 0) throw new WriteRefused(out.errors);
    Object.assign(counts, after);
    if (out.stoppedAt !== undefined) return 'max_errors';
    if (mode.kind === 'write') return (await this.renewOutside(job)) ? 'cancelled' : 'done';
    return cancelled ? 'cancelled' : 'done';
  }

  /** The counters after a checkpoint (its rows were counted `read` as they were read). */
  private add(counts: ImportCounts, out: Omit<ImportCounts, 'read'>): ImportCounts {
    return {
      read: counts.read,
      created: counts.created + out.created,
      updated: counts.updated + out.updated,
      unchanged: counts.unchanged + out.unchanged,
      failed: counts.failed + out.failed,
      unprocessed: counts.unprocessed + out.unprocessed,
    };
  }

  /**
   * The lease of a job whose second pass holds one transaction, renewed on another connection;
   * whether it was cancelled. The embedded database has one connection and one instance: nothing
   * else can take the job over, and the transaction holds the connection, so it is not renewed.
   */
  private async renewOutside(job: ImportJobRow): Promise<boolean> {
    if (!this.config.databaseUrl) return false;
    return importStatements.renew(this.db, job.id, job.claim!, this.config.importLeaseSeconds);
  }

  /** The second pass of an atomic job: every row written in one transaction (the counters are the first pass's). */
  async writeAll(
    job: ImportJobRow,
    options: ImportOptions,
    ctx: CheckpointContext & { base: RequestActor },
    counts: ImportCounts,
    stopping: () => boolean,
  ): Promise<Ending> {
    const Cancelled = class extends Error {};
    try {
      return await this.db
        .transaction(async (tx) => {
          const result = await this.pass({ ...job, counts: zero() }, options, ctx, { kind: 'write', tx }, stopping);
          if (result.ending === 'cancelled') throw new Cancelled();
          if (result.ending === 'stopping') throw new Cancelled('stopping');
          // the job is still this instance's, else the transaction rolls back (LostClaim)
          await importStatements.renew(tx, job.id, job.claim!, this.config.importLeaseSeconds);
          return 'done' as Ending;
        })
        .then(async (ending) => {
          await this.changed(ctx);
          return ending;
        });
    } catch (error) {
      if (error instanceof Cancelled) {
        counts.unprocessed = counts.read - counts.failed;
        Object.assign(counts, { created: 0, updated: 0, unchanged: 0 });
        return error.message === 'stopping' ? 'stopping' : 'cancelled';
      }
      if (!(error instanceof WriteRefused)) throw error;
      await importRowStatements.addErrors(this.db, job.id, error.errors);
      counts.failed += new Set(error.errors.map((e) => e.line)).size;
      return 'done'; // ends failed: rows were rejected, nothing written
    }
  }
}
