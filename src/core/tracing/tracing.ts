import {
  Attributes,
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/**
 * Tracing as the rest of the service sees it (API.md section 20, "Traces"). Only
 * @opentelemetry/api is imported here: with tracing off (OTEL_EXPORTER_OTLP_ENDPOINT unset), no
 * SDK is loaded and every function below returns at once (no span, no NULL bound, no log mixin).
 * The SDK itself is started by register.ts, before anything else is loaded.
 */
const state: { on: boolean; stop?: () => Promise<void> } = { on: false };

export type { Span };
export { SpanKind };

/** Called once by register.ts when the SDK has started; `stop` flushes and shuts it down. */
export function tracingStarted(stop: () => Promise<void>): void {
  state.on = true;
  state.stop = stop;
}

/** Whether the SDK runs (the endpoint is set). */
export function tracingOn(): boolean {
  return state.on;
}

/** Flushes the spans not exported yet and stops the SDK (at shutdown); at most `timeoutMs`. */
export async function stopTracing(timeoutMs = 2000): Promise<void> {
  const stop = state.stop;
  if (!stop) return;
  state.stop = undefined;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    stop().catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs).unref())),
  ]);
  clearTimeout(timer);
}

/**
 * The W3C `traceparent` of the active span (`00-<trace id>-<span id>-<flags>`), or null without
 * one (always with tracing off). An unsampled span's is given too (flags `00`): what continues it keeps its decision.
 */
export function activeTraceParent(): string | null {
  if (!state.on) return null;
  const span = trace.getActiveSpan();
  if (!span) return null;
  const { traceId, spanId, traceFlags } = span.spanContext();
  if (!isSpanContextValid(span.spanContext())) return null;
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/**
 * pino's `mixin` with tracing on: `trace_id` and `span_id` of the active span on every log line
 * (a new object each time: pino merges the line's own fields into it).
 */
export function traceLogMixin(): (() => object) | undefined {
  if (!state.on) return undefined;
  return () => {
    const span = trace.getActiveSpan();
    if (!span) return {};
    const spanContext = span.spanContext();
    if (!isSpanContextValid(spanContext)) return {};
    return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
  };
}

/**
 * `fn`, run outside whatever trace is active where it is called from (a timer armed by a request
 * would otherwise run in that request's trace). With tracing off, `fn` itself.
 */
export function detached<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return state.on ? context.bind(ROOT_CONTEXT, fn) : fn;
}

/**
 * Runs `work` in a new span `name`, the child of the span of `traceParent` (a W3C traceparent, e.g.
 * from an outbox row) or the root of a new trace without one; it ends when `work` settles (an
 * error marks it failed). With tracing off, `work` runs alone (its span argument undefined).
 */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  traceParent: string | null,
  attributes: Attributes,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!state.on) return work(undefined);
  const parent = traceParent ? propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }) : ROOT_CONTEXT;
  return trace.getTracer('crm-record-service').startActiveSpan(name, { kind, attributes }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Notes what became of the work of an inSpan span; with `error`, the span failed. */
export function noteOutcome(span: Span, attributes: Attributes, error?: string | null): void {
  span.setAttributes(attributes);
  if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
}
