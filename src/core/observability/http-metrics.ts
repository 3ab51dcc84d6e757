import type { INestApplication } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Metrics } from '../metrics/metrics';
import { requestPath } from '../http/request-path';
import { methodLabel, routeLabel } from './route-label';

/** The template of the route that took the request, set on the raw request by Fastify's preHandler hook. */
const ROUTE = Symbol('routeTemplate');
const STARTED = Symbol('metricsStarted');
type Req = IncomingMessage & { [ROUTE]?: string; route?: { path?: unknown }; originalUrl?: string };
type Res = ServerResponse & { [STARTED]?: number };
type Observe = (labels: Record<string, string>, seconds: number) => void;

/**
 * `http_server_request_duration_seconds` (API.md section 20): one observation per request when
 * its response is done (or its client went away), labelled by method, route template and status.
 * Mounted first, so a request refused before any route (a 414, a malformed body) counts too, as
 * `unmatched`. The template is Express's matched route (`req.route`) or the one Fastify's hook
 * noted (`trackFastifyRoutes`).
 */
export function httpMetrics(metrics: Metrics): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  const durations = metrics.histogram('http_server_request_duration_seconds');
  const observe: Observe = (labels, seconds) => durations.observe(labels, seconds);
  function onClose(this: Res): void {
    const req = this.req as Req;
    const template = req[ROUTE] ?? (typeof req.route?.path === 'string' ? req.route.path : undefined);
    observe(
      {
        http_request_method: methodLabel(req.method),
        http_route: routeLabel(template, requestPath(req)),
        http_response_status_code: String(this.statusCode),
      },
      (performance.now() - this[STARTED]!) / 1000,
    );
  }
  return (_req, res, next) => {
    (res as Res)[STARTED] = performance.now();
    res.on('close', onClose);
    next();
  };
}

/** On Fastify, notes each routed request's template on the raw request (read by `httpMetrics`). */
export function trackFastifyRoutes(app: INestApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as {
    addHook(
      name: 'preHandler',
      hook: (request: { raw: Req; routeOptions: { url?: string } }, reply: unknown, done: () => void) => void,
    ): void;
  };
  fastify.addHook('preHandler', (request, _reply, done) => {
    request.raw[ROUTE] = request.routeOptions.url;
    done();
  });
}
