import { diag } from '@opentelemetry/api';
import { ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './export-worker';
import { toRecord } from './span-records';

/**
 * A span exporter whose OTLP/HTTP export (its JSON encoding and its POST) runs in a worker
 * thread (export-worker.ts): the service's thread only turns each batch into plain data and
 * posts it. Its callbacks come back when the worker's export is done, so the batch processor's
 * limits (one export at a time, its queue, its timeout) hold as with the exporter itself. The
 * worker keeps the process up only while an export is under way (as the exporter's own socket
 * did): the last spans, flushed at shutdown, are sent before it exits.
 */
export class WorkerSpanExporter implements SpanExporter {
  private readonly worker: Worker;
  private readonly pending = new Map<number, (result: ExportResult) => void>();
  private last = 0;
  private stopped?: Error;

  constructor(resource: Resource) {
    // required by path, so that it runs as built (.js) or, in tests, through ts-node (.ts)
    this.worker = new Worker(`require(${JSON.stringify(require.resolve('./export-worker'))})`, {
      eval: true,
      workerData: { attributes: resource.attributes, schemaUrl: resource.schemaUrl },
    });
    this.worker.on('message', ({ id, code, error }: FromWorker) => {
      const done = this.pending.get(id);
      this.pending.delete(id);
      if (this.pending.size === 0) this.worker.unref();
      done?.({ code, error: error === undefined ? undefined : new Error(error) });
    });
    this.worker.on('error', (error) => {
      diag.error(`the span export worker failed: ${error.message}`);
      this.failAll(error);
    });
    this.worker.on('exit', () => this.failAll(new Error('the span export worker stopped')));
    // after the listeners: adding a 'message' listener refs the worker again
    this.worker.unref();
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.send({ type: 'export', id: 0, spans: spans.map(toRecord) }, done);
  }

  forceFlush(): Promise<void> {
    return this.ask('flush');
  }

  async shutdown(): Promise<void> {
    await this.ask('shutdown');
    await this.worker.terminate();
  }

  private ask(type: 'flush' | 'shutdown'): Promise<void> {
    return new Promise((resolve, reject) =>
      this.send({ type, id: 0 }, ({ code, error }) => (code === ExportResultCode.SUCCESS ? resolve() : reject(error))),
    );
  }

  private send(message: ToWorker, done: (result: ExportResult) => void): void {
    if (this.stopped) return done({ code: ExportResultCode.FAILED, error: this.stopped });
    message.id = ++this.last;
    this.pending.set(message.id, done);
    this.worker.ref();
    this.worker.postMessage(message);
  }

  /** The worker is gone (it failed, or it was stopped): what waits on it fails, and so will what comes. */
  private failAll(error: Error): void {
    this.stopped ??= error;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const done of waiting) done({ code: ExportResultCode.FAILED, error });
  }
}
