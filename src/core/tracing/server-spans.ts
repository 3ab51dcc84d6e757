import type { INestApplication } from '@nestjs/common';
import {
  Attributes,
  context,
  Context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
  Tracer,
} from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { methodLabel, routeTemplate } from './http-route';
import { tracingOn } from './tracing';

/** Probes and scrapes are not traced (nor what they run: without a span, their statements make none). */
const UNTRACED = /^\/(?:rest\/(?:health|ready)|metrics)(?:[/?]|$)/;

type Request = IncomingMessage & { route?: { path?: unknown } };
type Emit = (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;

/**
 * The context a request runs in: its server span's (a child of the caller's `traceparent` when it
 * sends one), or undefined when there is nothing to record nor to continue (a probe, a scrape, or
 * a request that starts a trace the sampler does not keep). That last case is most requests at a
 * low sampling rate, and it costs nothing but the sampler's decision: no span attributes, no
 * context entered, no listener bound (the http instrumentation did all three for every request,
 * recorded or not: a quarter of a get by id, docs/benchmarks.md "Tracing").
 */
export function serverContext(tracer: Tracer, request: Request, response: ServerResponse): Context | undefined {
  const url = request.url ?? '/';
  if (UNTRACED.test(url)) return undefined;
  const parent =
    request.headers.traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, request.headers);
  const method = request.method ?? 'GET';
  const known = methodLabel(method);
  const span = tracer.startSpan(known === '_OTHER' ? 'HTTP' : known, { kind: SpanKind.SERVER }, parent);
  if (!span.isRecording()) {
    // not recorded: a caller's trace is still continued (its id and decision go on to the
    // outbox, the webhook and the log lines); a trace of our own that is not kept is dropped
    const caller = trace.getSpanContext(parent);
    return caller && isSpanContextValid(caller) ? trace.setSpan(parent, span) : undefined;
  }
  span.setAttributes(requestAttributes(request, known, url));
  response.once('close', () => endServerSpan(span, request, response));
  return trace.setSpan(parent, span);
}

/** A recorded request's attributes: never its query string (filters hold values) nor a header but the user agent. */
function requestAttributes(request: Request, method: string, url: string): Attributes {
  // `method` is the bounded value (`_OTHER` for a method outside the standard ones)
  const query = url.indexOf('?');
  const host = request.headers.host ?? '';
  const colon = host.lastIndexOf(':');
  const bracket = host.lastIndexOf(']'); // an IPv6 address: [::1]:3000
  const [address, port] = colon > bracket ? [host.slice(0, colon), Number(host.slice(colon + 1))] : [host, undefined];
  return {
    'http.request.method': method,
    ...(method === '_OTHER' ? { 'http.request.method_original': request.method } : {}),
    'url.scheme': 'http',
    'url.path': query < 0 ? url : url.slice(0, query),
    'server.address': address || undefined,
    'server.port': port,
    'client.address': request.socket.remoteAddress,
    'network.peer.address': request.socket.remoteAddress,
    'network.peer.port': request.socket.remotePort,
    'network.protocol.version': request.httpVersion,
    'user_agent.original': request.headers['user-agent'],
  };
}

/**
 * Ends a recorded server span when its response is done (or its client went away): its status
 * code, failed for a 5xx, and on Express its route template (Fastify's is set when its route is
 * matched, by traceRequests).
 */
function endServerSpan(span: Span, request: Request, response: ServerResponse): void {
  const route = request.route?.path;
  if (typeof route === 'string') nameServerSpan(span, request.method ?? 'GET', route);
  span.setAttribute('http.response.status_code', response.statusCode);
  if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** `GET /rest/people/{id}`, attribute `http.route`; a wildcard route (the catch-all) keeps the method alone. */
function nameServerSpan(span: Span, method: string, route: string): void {
  const template = routeTemplate(route);
  if (template) span.updateName(`${method} ${template}`).setAttribute('http.route', template);
}

/** The context a request ran in, kept on its response (`traceRequests`) for what runs once it is done. */
const REQUEST_CONTEXT = Symbol('requestContext');
type Traced = IncomingMessage & { [REQUEST_CONTEXT]?: Context };

/**
 * `fn` run in the context `request` ran in (its server span's), or as it is when it ran in none:
 * for what its response's `close` tells (the request log line, with the trace's ids). That event
 * comes from the socket, outside the request's context, when the client goes away first, and the
 * response is not bound to it.
 */
export function inRequestContext<T>(request: IncomingMessage, fn: () => T): T {
  const active = (request as Traced)[REQUEST_CONTEXT];
  return active ? context.with(active, fn) : fn();
}

/** Whether a body follows the headers (as the body parsers tell: type-is `hasBody`). */
const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined || request.headers['content-length'] !== undefined;

/**
 * Runs each request of the application's HTTP server in the context of its server span
 * (`serverContext`). A request with a body has the listeners later added to it bound to that
 * context: its body's `data` and `end` are emitted from the socket's context, and the body parser
 * that listens to them then runs the handler. Its response is not bound (binding patches six
 * methods onto the object, and changes its shape for every piece of code that reads it): what
 * runs on its `close` is the span's end, which needs no context, and the request log line,
 * run in it by `inRequestContext`. A request without a body runs its handler within this call
 * (continuations of promises and ticks keep the context). Outgoing requests (webhook POSTs) are
 * the http instrumentation's (sdk.ts). Before `listen`; nothing with tracing off.
 */
export function traceRequests(app: INestApplication): void {
  if (!tracingOn()) return;
  const tracer = trace.getTracer('crm-record-service');
  const server = app.getHttpServer() as { emit: Emit };
  const emit = server.emit;
  server.emit = function emitTraced(this: unknown, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'request') return emit.call(this, event, ...args);
    const [request, response] = args as [Request, ServerResponse];
    const active = serverContext(tracer, request, response);
    // set on every request, traced or not: objects of one shape for the code that reads them
    (request as Traced)[REQUEST_CONTEXT] = active;
    if (!active) return emit.call(this, event, ...args);
    if (hasBody(request)) context.bind(active, request);
    return context.with(active, () => emit.call(this, event, ...args));
  };
  const adapter = app.getHttpAdapter();
  if (adapter.getType() !== 'fastify') return;
  (adapter.getInstance() as FastifyRouteHooks).addHook('onRequest', (request, _reply, done) => {
    const span = trace.getActiveSpan();
    if (span?.isRecording() && request.routeOptions.url) nameServerSpan(span, request.method, request.routeOptions.url);
    done();
  });
}

interface FastifyRouteHooks {
  addHook(
    name: 'onRequest',
    hook: (request: { method: string; routeOptions: { url?: string } }, reply: unknown, done: () => void) => void,
  ): unknown;
}
