import type { INestApplication } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { Metrics } from '../metrics/metrics';
import { requestPath } from '../http/request-path';
import type { ResponseObserver } from '../http/response-done';
import { methodLabel, routeLabel } from './route-label';

/** The template of the route that took the request, set on the raw request by Fastify's preHandler hook. */
const ROUTE = Symbol('routeTemplate');
type Req = IncomingMessage & { [ROUTE]?: string; route?: { path?: unknown }; originalUrl?: string };

/**
 * `http_server_request_duration_seconds` (API.md section 20): one observation per request when
 * its response is done (or its client went away), labelled by method, route template and status,
 * told by `observeResponses` (mounted first, so a request refused before any route, a 414 or a
 * malformed body, counts too, as `unmatched`). The template is Express's matched route
 * (`req.route`) or the one Fastify's hook noted (`trackFastifyRoutes`).
 */
export function httpMetrics(metrics: Metrics): ResponseObserver {
  const durations = metrics.histogram('http_server_request_duration_seconds');
  return (request, res, durationMs) => {
    const req = request as Req;
    const template = req[ROUTE] ?? (typeof req.route?.path === 'string' ? req.route.path : undefined);
    durations.observe(
      {
        http_request_method: methodLabel(req.method),
        http_route: routeLabel(template, requestPath(req)),
        http_response_status_code: String(res.statusCode),
      },
      durationMs / 1000,
    );
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
