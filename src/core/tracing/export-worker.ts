import { ExportResult, ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { parentPort, workerData } from 'node:worker_threads';
import { logDiagnostics } from './diagnostics';
import { fromRecord, SpanRecord } from './span-records';

/**
 * The worker thread of WorkerSpanExporter (worker-exporter.ts): the OTLP/HTTP exporter, configured
 * by the same standard variables (a worker starts with a copy of the process's environment), sends
 * the batches the service's thread posts here, and says how each went.
 */
export type ToWorker =
  | { type: 'export'; id: number; spans: SpanRecord[] }
  | { type: 'flush'; id: number }
  | { type: 'shutdown'; id: number };
export type FromWorker = { id: number; code: number; error?: string };

if (parentPort) {
  const port = parentPort;
  logDiagnostics(process.env);
  const { attributes, schemaUrl } = workerData as { attributes: Record<string, string>; schemaUrl?: string };
  const resource = resourceFromAttributes(attributes, schemaUrl ? { schemaUrl } : undefined);
  const exporter = new OTLPTraceExporter();
  const reply = (id: number, { code, error }: ExportResult) => port.postMessage({ id, code, error: error?.message });
  port.on('message', (message: ToWorker) => {
    if (message.type === 'export')
      exporter.export(
        message.spans.map((record) => fromRecord(record, resource)),
        (result) => reply(message.id, result),
      );
    else
      (message.type === 'flush' ? exporter.forceFlush() : exporter.shutdown()).then(
        () => reply(message.id, { code: ExportResultCode.SUCCESS }),
        (error: Error) => reply(message.id, { code: ExportResultCode.FAILED, error }),
      );
  });
}
