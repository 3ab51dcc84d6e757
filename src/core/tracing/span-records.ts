import type { Attributes, HrTime, Link, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';

/** What a context is made of, as plain data. */
interface ContextRecord {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
  traceState?: string;
}

/**
 * A finished span as plain data, which a worker thread can be sent (structured clone): what the
 * OTLP transformer reads of a `ReadableSpan`, its methods and shared objects turned into values.
 */
export interface SpanRecord {
  name: string;
  kind: SpanKind;
  context: ContextRecord;
  parent?: ContextRecord;
  startTime: HrTime;
  endTime: HrTime;
  duration: HrTime;
  status: SpanStatus;
  attributes: Attributes;
  links: { context: ContextRecord; attributes?: Attributes; droppedAttributesCount?: number }[];
  events: TimedEvent[];
  scope: { name: string; version?: string; schemaUrl?: string };
  droppedAttributesCount: number;
  droppedEventsCount: number;
  droppedLinksCount: number;
}

const contextRecord = ({ traceId, spanId, traceFlags, isRemote, traceState }: SpanContext): ContextRecord => ({
  traceId,
  spanId,
  traceFlags,
  isRemote,
  traceState: traceState?.serialize(),
});

const spanContext = ({ traceState, ...context }: ContextRecord): SpanContext => ({
  ...context,
  ...(traceState ? { traceState: new TraceState(traceState) } : {}),
});

/** `span` as plain data (its resource is the exporter's one: it is not sent with each span). */
export function toRecord(span: ReadableSpan): SpanRecord {
  const { name, version, schemaUrl } = span.instrumentationScope;
  return {
    name: span.name,
    kind: span.kind,
    context: contextRecord(span.spanContext()),
    parent: span.parentSpanContext && contextRecord(span.parentSpanContext),
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    status: span.status,
    attributes: span.attributes,
    links: span.links.map((link: Link) => ({ ...link, context: contextRecord(link.context) })),
    events: span.events,
    scope: { name, version, schemaUrl },
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** A `ReadableSpan` again, of `resource`, for the exporter. */
export function fromRecord(record: SpanRecord, resource: Resource): ReadableSpan {
  const context = spanContext(record.context);
  return {
    name: record.name,
    kind: record.kind,
    spanContext: () => context,
    parentSpanContext: record.parent && spanContext(record.parent),
    startTime: record.startTime,
    endTime: record.endTime,
    duration: record.duration,
    ended: true,
    status: record.status,
    attributes: record.attributes,
    links: record.links.map((link) => ({ ...link, context: spanContext(link.context) })),
    events: record.events,
    resource,
    instrumentationScope: record.scope,
    droppedAttributesCount: record.droppedAttributesCount,
    droppedEventsCount: record.droppedEventsCount,
    droppedLinksCount: record.droppedLinksCount,
  };
}
