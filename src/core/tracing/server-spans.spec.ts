import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  ParentBasedSampler,
  SamplingDecision,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { EventEmitter } from 'node:events';
import type { INestApplication } from '@nestjs/common';
import { inRequestContext, traceRequests } from './server-spans';
import { tracingStarted } from './tracing';

/** New traces are kept while `keep.roots` is true; a caller's decision is always followed. */
const keep = { roots: true };
const exporter = new InMemorySpanExporter();
const caller = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' };

/** A request as the HTTP server emits it: an emitter (its body's events come later, from elsewhere). */
function incoming(url: string, headers: Record<string, string> = {}) {
  const request = Object.assign(new EventEmitter(), {
    url,
    method: 'GET',
    headers: { host: 'crm.example:3000', 'user-agent': 'unit', ...headers },
    httpVersion: '1.1',
    socket: { remoteAddress: '10.0.0.7', remotePort: 50000 },
    route: undefined as { path: string } | undefined,
  });
  const response = Object.assign(new EventEmitter(), { statusCode: 200 });
  return { request, response };
}

describe('traceRequests (the server span of each request)', () => {
  const server = new EventEmitter();
  /** What the application's request listener saw as the active span, and later its body listener. */
  const seen: {
    handler?: ReturnType<typeof trace.getActiveSpan>;
    recording?: boolean; // while the request runs (a span ended is no longer recording)
    body?: ReturnType<typeof trace.getActiveSpan>;
  } = {};

  beforeAll(() => {
    new NodeTracerProvider({
      sampler: new ParentBasedSampler({
        root: {
          shouldSample: () => ({
            decision: keep.roots ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD,
          }),
          toString: () => 'test',
        },
      }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }).register();
    tracingStarted(() => Promise.resolve());
    const app = {
      getHttpServer: () => server,
      getHttpAdapter: () => ({ getType: () => 'express' }),
    } as unknown as INestApplication;
    traceRequests(app);
    server.on('request', (request: EventEmitter) => {
      seen.handler = trace.getActiveSpan();
      seen.recording = seen.handler?.isRecording();
      request.on('end', () => (seen.body = trace.getActiveSpan()));
    });
  });
  afterAll(() => {
    context.disable();
    trace.disable();
    propagation.disable();
  });
  beforeEach(() => {
    exporter.reset();
    seen.handler = seen.body = seen.recording = undefined;
    keep.roots = true;
  });

  /** Emits the request, then its body's end and its response's close from outside its context. */
  function serve(url: string, headers?: Record<string, string>, settle?: (r: ReturnType<typeof incoming>) => void) {
    const exchange = incoming(url, headers);
    server.emit('request', exchange.request, exchange.response);
    context.with(context.active(), () => {
      exchange.request.emit('end');
      settle?.(exchange);
      exchange.response.emit('close');
    });
    return exchange;
  }

  it('records a kept request: its context reaches the body listeners, the span ends with the response', () => {
    serve('/rest/people/42?filter=city[eq]:Paris', { 'content-length': '2' }, ({ request, response }) => {
      request.route = { path: '/rest/people/:id' };
      response.statusCode = 404;
    });
    expect(seen.recording).toBe(true);
    expect(seen.body).toBe(seen.handler);
    const [span] = exporter.getFinishedSpans();
    expect(span).toMatchObject({ name: 'GET /rest/people/{id}', kind: SpanKind.SERVER });
    expect(span.status.code).toBe(SpanStatusCode.UNSET); // a 4xx is the client's
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/rest/people/{id}',
      'http.response.status_code': 404,
      'url.path': '/rest/people/42',
      'server.address': 'crm.example',
      'server.port': 3000,
      'client.address': '10.0.0.7',
    });
    expect(JSON.stringify(span.attributes)).not.toContain('Paris'); // never the query string
  });

  it('binds no request without a body nor any response; what its response tells runs in its trace', () => {
    let closed: ReturnType<typeof trace.getActiveSpan>;
    const { request, response } = serve('/rest/people/42', {}, ({ request }) =>
      request.once('close', () => (closed = inRequestContext(request as never, () => trace.getActiveSpan()))),
    );
    request.emit('close');
    expect(seen.recording).toBe(true);
    // patched emitters change shape: the handler's code then meets two kinds of request object
    expect(Object.hasOwn(request, 'on') || Object.hasOwn(response, 'on')).toBe(false);
    expect(seen.body).toBeUndefined(); // an event emitted outside its context stays outside
    expect(closed).toBe(seen.handler); // the request log line carries its trace's ids
    const probe = serve('/rest/health');
    expect(inRequestContext(probe.request as never, () => trace.getActiveSpan())).toBeUndefined();
  });

  it('marks a 5xx failed; a path no route took keeps the method alone', () => {
    serve('/rest/nowhere', {}, ({ response }) => (response.statusCode = 503));
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('GET');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('names a method outside the standard ones `HTTP`, with `_OTHER` and the method itself as attributes', () => {
    const exchange = incoming('/rest/people');
    exchange.request.method = 'PROPFIND';
    server.emit('request', exchange.request, exchange.response);
    exchange.response.emit('close');
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('HTTP');
    expect(span.attributes).toMatchObject({
      'http.request.method': '_OTHER',
      'http.request.method_original': 'PROPFIND',
    });
  });

  it('continues a sampled caller: the span is the child of its traceparent', () => {
    keep.roots = false; // the caller's decision wins
    serve('/rest/people', { traceparent: `00-${caller.traceId}-${caller.spanId}-01` });
    const [span] = exporter.getFinishedSpans();
    expect(span.spanContext().traceId).toBe(caller.traceId);
    expect(span.parentSpanContext?.spanId).toBe(caller.spanId);
  });

  it('continues an unsampled caller without recording: its trace id and decision reach the handler and the body', () => {
    serve('/rest/people', { traceparent: `00-${caller.traceId}-${caller.spanId}-00`, 'transfer-encoding': 'chunked' });
    expect(seen.recording).toBe(false);
    expect(seen.handler?.spanContext().traceId).toBe(caller.traceId);
    expect(seen.body).toBe(seen.handler);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('starts nothing for a new trace the sampler does not keep, nor for an unreadable traceparent', () => {
    keep.roots = false;
    serve('/rest/people');
    expect(seen.handler).toBeUndefined();
    serve('/rest/people', { traceparent: 'not-a-traceparent' });
    expect(seen.handler).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('leaves probes and scrapes untraced', () => {
    for (const path of ['/rest/health', '/rest/ready?full=1', '/metrics']) {
      serve(path);
      expect(seen.handler).toBeUndefined();
    }
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('passes every other event of the server through', () => {
    const listener = jest.fn();
    server.on('connection', listener);
    expect(server.emit('connection', 'socket')).toBe(true);
    expect(listener).toHaveBeenCalledWith('socket');
  });
});
