import { context, propagation, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { fromRecord, toRecord } from './span-records';

describe('span records (what the service thread posts to the span export worker)', () => {
  const resource = resourceFromAttributes({ 'service.name': 'crm-record-service', 'service.instance.id': 'i-1' });
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  beforeEach(() => exporter.reset());
  afterAll(async () => {
    await provider.shutdown();
    context.disable();
    trace.disable();
    propagation.disable();
  });

  /** A server span continuing a caller's context (with a trace state), and its child with an event, a link and an error. */
  function finishedSpans(): ReadableSpan[] {
    const tracer = provider.getTracer('crm-record-service', '1.2.3');
    const caller = trace.setSpanContext(context.active(), {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: new TraceState('vendor=a1,other=b2'),
    });
    const server = tracer.startSpan('GET /rest/people/{id}', { kind: SpanKind.SERVER }, caller);
    server.setAttributes({ 'http.route': '/rest/people/{id}', 'http.response.status_code': 200, tags: ['a', 'b'] });
    const child = tracer.startSpan(
      'SELECT',
      {
        kind: SpanKind.CLIENT,
        links: [{ context: server.spanContext(), attributes: { why: 'retry' } }],
        attributes: { 'db.query.text': 'SELECT 1 WHERE $1', ok: true, ratio: 0.5 },
      },
      trace.setSpan(caller, server),
    );
    child.addEvent('exception', { 'exception.message': 'boom' });
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
    child.end();
    server.end();
    return exporter.getFinishedSpans();
  }

  it('carries everything the OTLP export sends, through a structured clone', () => {
    const spans = finishedSpans();
    expect(spans).toHaveLength(2);
    const sent = spans.map((span) => fromRecord(structuredClone(toRecord(span)), resource));
    const decode = (body: Uint8Array | undefined) => JSON.parse(new TextDecoder().decode(body)) as unknown;
    const expected = decode(JsonTraceSerializer.serializeRequest(spans));
    expect(decode(JsonTraceSerializer.serializeRequest(sent))).toEqual(expected);
    // what the comparison covers: the parent, the trace state, the link, the event, the status
    expect(JSON.stringify(expected)).toEqual(expect.stringContaining('"traceState":"vendor=a1,other=b2"'));
    expect(JSON.stringify(expected)).toEqual(expect.stringContaining('"name":"exception"'));
    expect(JSON.stringify(expected)).toEqual(expect.stringContaining('"parentSpanId"'));
    expect(JSON.stringify(expected)).toEqual(expect.stringContaining('"message":"boom"'));
  });

  it('keeps the timing fields the exporter does not send but a processor may read', () => {
    const [span] = finishedSpans();
    const copy = fromRecord(structuredClone(toRecord(span)), resource);
    expect(copy.duration).toEqual(span.duration);
    expect(copy.ended).toBe(true);
    expect(copy.parentSpanContext).toEqual(expect.objectContaining({ spanId: span.parentSpanContext?.spanId }));
  });
});
