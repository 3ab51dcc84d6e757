import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
  PayloadTooLargeException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { requireAction } from '../access/access-checks';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Db } from '../database/db';
import { FileStorage, newObjectKey } from '../files';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor } from '../model/record';
import { ImportJobRow } from '../repository/import-job-row';
import { importStatements } from '../repository/import-statements';
import { importRowStatements, StoredRowError } from '../repository/import-row-statements';
import { activeTraceParent } from '../tracing/tracing';
import { planColumns } from './import-columns';
import { ImportOptions } from './import-options';
import { openImportReader } from './import-reader';
import { FINISHED, ImportJob, jobView } from './import-job-view';
import { ImportWorker } from './import-worker';

/** Counts the bytes and hashes them as they pass; past `max`, fails with a 413. */
class Metered extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');
  constructor(private readonly max: number) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.max)
      return callback(new PayloadTooLargeException(`Body is larger than IMPORT_MAX_BYTES (${this.max} bytes)`));
    this.hash.update(chunk);
    callback(null, chunk);
  }
  digest(): string {
    return this.hash.digest('hex');
  }
}

/**
 * Import jobs as the routes see them (API.md section 17): started from a streamed body (stored
 * whole in the file storage before the 202, so any instance can run it), read, listed, waited
 * for, cancelled, and their error reports. The work itself is ImportWorker's.
 */
@Injectable()
export class ImportJobs {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly catalog: CollectionCatalog,
    private readonly worker: ImportWorker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The actions a job's operation needs (403 otherwise), checked before any byte is stored. */
  checkAccess(meta: CollectionMeta, options: ImportOptions, actor: RequestActor): void {
    if (options.operation !== 'update') requireAction(actor.access, meta.plural, 'create');
    if (options.operation !== 'create') requireAction(actor.access, meta.plural, 'update');
    if (meta.def.hooks?.beforeCreate) throw new BadRequestException([`${meta.plural} cannot be imported`]);
  }

  /**
   * Stores the body and queues its job; with an idempotency key already used, the first job (the
   * same bytes and parameters: `replayed`) or a 422. A body announced or found over
   * IMPORT_MAX_BYTES is a 413, and a CSV header that names a bad column a 400: nothing is kept.
   */
  async start(
    meta: CollectionMeta,
    options: ImportOptions,
    body: Readable,
    actor: RequestActor,
    idempotencyKey: string | undefined,
  ): Promise<{ job: ImportJob; replayed: boolean }> {
    this.checkAccess(meta, options, actor);
    const declared = Number((body as { headers?: Record<string, unknown> }).headers?.['content-length']);
    if (declared > this.config.importMaxBytes)
      throw new PayloadTooLargeException(
        `Body of ${declared} bytes is larger than IMPORT_MAX_BYTES (${this.config.importMaxBytes} bytes)`,
      );
    const key = newObjectKey();
    const meter = new Metered(this.config.importMaxBytes);
    body.on('error', (error) => meter.destroy(error));
    await this.storage.put(key, body.pipe(meter), {
      contentType: options.format === 'csv' ? 'text/csv' : 'application/x-ndjson',
    });
    try {
      if (options.format === 'csv') await this.checkHeader(meta, key, options, actor);
      const { operation, format, ...rest } = options;
      const fingerprint = createHash('sha256')
        .update(JSON.stringify([meta.plural, options, meter.digest()]))
        .digest('hex');
      const values = {
        id: randomUUID(),
        collection: meta.plural,
        operation,
        format,
        options: rest as unknown as Record<string, unknown>,
        bytes: meter.bytes,
        objectKey: key,
        apiKeyId: actor.apiKeyId || null,
        idempotencyKey: idempotencyKey ?? null,
        fingerprint,
        traceParent: activeTraceParent(),
      };
      const inserted = await importStatements.insert(this.db, values);
      if (!inserted) {
        await this.storage.delete(key);
        const first = await importStatements.findByIdempotencyKey(this.db, actor.apiKeyId, idempotencyKey!);
        if (!first || first.fingerprint !== fingerprint)
          throw new UnprocessableEntityException('Idempotency-Key was already used with a different import');
        return { job: jobView(first), replayed: true };
      }
      this.worker.wake();
      return { job: jobView(inserted), replayed: false };
    } catch (error) {
      await this.storage.delete(key).catch(() => undefined);
      throw error;
    }
  }

  /** A CSV header that names an unknown, repeated or unwritable column is a 400 before the job exists. */
  private async checkHeader(
    meta: CollectionMeta,
    key: string,
    options: ImportOptions,
    actor: RequestActor,
  ): Promise<void> {
    const stream = await this.storage.get(key);
    try {
      const reader = await openImportReader(stream, options);
      planColumns(meta, this.catalog, reader.header ?? [], actor.access);
    } finally {
      stream.destroy();
    }
  }

  /** A job the key may see (its own; any for an admin key), else 404. */
  async find(id: string, actor: RequestActor): Promise<ImportJobRow> {
    const row = await importStatements.find(this.db, id);
    if (!row || (!actor.access.admin && row.apiKeyId !== actor.apiKeyId))
      throw new NotFoundException(`Import '${id}' not found`);
    return row;
  }

  /** The job once it has finished, or as it is after `seconds`. */
  async waitFor(id: string, seconds: number): Promise<ImportJobRow> {
    const until = Date.now() + Math.min(seconds, 60) * 1000;
    for (;;) {
      const row = (await importStatements.find(this.db, id))!;
      if (FINISHED.has(row.state) || Date.now() >= until) return row;
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(0, until - Date.now()))));
    }
  }

  /** Newest first: a key's own jobs, or every job for an admin key. */
  async list(actor: RequestActor, limit: number, after: [string, string] | null): Promise<ImportJobRow[]> {
    return importStatements.page(this.db, actor.access.admin ? null : actor.apiKeyId, after, limit);
  }

  /** Asks a running or queued job to stop; a finished one is a 409. */
  async cancel(id: string, actor: RequestActor): Promise<ImportJobRow> {
    const found = await this.find(id, actor);
    const row = await importStatements.requestCancel(this.db, found.id);
    if (!row) throw new ConflictException(`Import '${id}' has already finished (${found.state})`);
    // a job cancelled before it ran leaves no file behind (a running one removes its own at its end)
    if (row.state === 'cancelled' && found.objectKey) await this.storage.delete(found.objectKey).catch(() => undefined);
    return row;
  }

  /** Every rejected row of a job, in line order, page by page (never the whole report in memory). */
  async *errors(id: string): AsyncGenerator<StoredRowError> {
    let after: [number, number] = [0, 0];
    for (;;) {
      const page = await importRowStatements.errorsAfter(this.db, id, after, 1000);
      for (const { seq: _seq, ...error } of page) yield error;
      if (page.length < 1000) return;
      const last = page[page.length - 1];
      after = [last.line, last.seq];
    }
  }
}
