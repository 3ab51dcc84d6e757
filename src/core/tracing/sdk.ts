import { Attributes, context, Span, trace } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { RequestOptions } from 'node:http';
import { logDiagnostics } from './diagnostics';
import { WorkerSpanExporter } from './worker-exporter';

/** The longest attribute value kept by default (OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT changes it). */
const ATTRIBUTE_LENGTH = 2048;

/** An outgoing request's URL without its query string (a webhook target may carry a token there). */
export function urlWithoutQuery(options: RequestOptions): Attributes {
  const name = options.hostname ?? options.host ?? 'localhost';
  const host = name.includes(':') && !name.startsWith('[') ? `[${name}]` : name; // an IPv6 address
  const port = options.port ? `:${options.port}` : '';
  return { 'url.full': `${options.protocol ?? 'http:'}//${host}${port}${(options.path ?? '/').split('?')[0]}` };
}

/**
 * `COPY (...) TO STDOUT` (exports) takes no bound parameters, so its values are written into the
 * statement as `E'...'` literals (database/sql.ts `inlineValues`): masked in the span. Every other
 * statement binds its values (`$1`...), which are never recorded.
 */
function maskCopyLiterals(span: Span, { query }: { query: { text: string } }): void {
  if (query.text.startsWith('COPY'))
    span.setAttribute('db.query.text', query.text.replace(/E'(?:[^'\\]|\\.|'')*'/g, "E'?'"));
}

type Query = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Sends the statements of a request that is not sampled without its span in their context, so
 * that the pg instrumentation (`requireParentSpan`) leaves them alone: otherwise it builds, for a
 * span never recorded, its attributes, a parsed operation name, a copy of the query and a wrapped
 * result, 35-45 µs of CPU per statement (`bench/tracing-cost.ts`), a sixth of a get by id. The
 * instrumentation has no option for it: `query` is wrapped once more, over the instrumented one.
 */
export function skipUnsampledStatements(client: { prototype: { query: Query } }): void {
  const instrumented = client.prototype.query;
  client.prototype.query = function query(this: unknown, ...args: unknown[]): unknown {
    const active = context.active();
    const span = trace.getSpan(active);
    if (!span || span.isRecording()) return instrumented.apply(this, args);
    return context.with(trace.deleteSpan(active), () => instrumented.apply(this, args));
  };
}

/**
 * Starts the OpenTelemetry SDK from its standard variables (OTEL_EXPORTER_OTLP_ENDPOINT,
 * OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER(_ARG), OTEL_BSP_*,
 * OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT, OTEL_LOG_LEVEL): spans batched to the OTLP/HTTP
 * endpoint (JSON) from a worker thread (worker-exporter.ts), W3C trace context and baggage
 * propagation, and three instrumentations only:
 * - http: a CLIENT span per outgoing request (webhook POSTs, which thereby send `traceparent`);
 *   the SERVER span of each request is server-spans.ts's (`traceRequests`), started only when
 *   it is recorded or continues a caller's trace;
 * - pg: a span per statement, its text with `$n` placeholders and never the bound values
 *   (`enhancedDatabaseReporting` off), only inside a sampled trace (no root spans for background
 *   polls, no work for the statements of a request that is not recorded);
 * - ioredis: a span per command, its name only (no key, no argument), only inside a trace.
 * Returns what flushes and stops it.
 */
export function startSdk(env: Record<string, string | undefined>): () => Promise<void> {
  logDiagnostics(env);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'crm-record-service' }))
    .merge(detectResources({ detectors: [envDetector] }));
  // attribute values cut at 2,048 characters unless the standard variables say otherwise: a write's
  // statement text runs to 6-7 kB, and exporting it whole cost more than the rest of its spans
  const limited = env.OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT || env.OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT;
  const provider = new NodeTracerProvider({
    resource,
    // the OTLP/HTTP export itself runs in a worker thread (worker-exporter.ts)
    spanProcessors: [new BatchSpanProcessor(new WorkerSpanExporter(resource))],
    ...(limited ? {} : { spanLimits: { attributeValueLengthLimit: ATTRIBUTE_LENGTH } }),
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // outgoing requests only: the server spans are server-spans.ts's
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true, startOutgoingSpanHook: urlWithoutQuery }),
      new PgInstrumentation({
        enhancedDatabaseReporting: false,
        requireParentSpan: true,
        ignoreConnectSpans: true,
        requestHook: maskCopyLiterals,
      }),
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  // loaded here, once instrumented (the hook registered above wraps it as it loads)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  skipUnsampledStatements((require('pg') as typeof import('pg')).Client as unknown as { prototype: { query: Query } });
  return () => provider.shutdown();
}
