import type { INestApplication } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { tracingOn } from './tracing';

/** The templates of the route paths seen so far (one per route of the route table: bounded). */
const TEMPLATES = new Map<string, string>();

/**
 * A router path as a route template, `/rest/people/:id` → `/rest/people/{id}`; undefined for a
 * wildcard (the catch-all under /rest: a path no route took).
 */
export function routeTemplate(path: string): string | undefined {
  let template = TEMPLATES.get(path);
  if (template === undefined) {
    template = path.includes('*') ? '' : path.replace(/:(\w+)/g, '{$1}');
    TEMPLATES.set(path, template);
  }
  return template || undefined;
}

interface FastifyRouteHooks {
  addHook(
    name: 'onRequest',
    hook: (request: { method: string; routeOptions: { url?: string } }, reply: unknown, done: () => void) => void,
  ): unknown;
}

/**
 * Names each request's server span after its route template (`GET /rest/people/{id}`, attribute
 * `http.route`) on Fastify, from the route Fastify matched; on Express the SDK reads it from the
 * request when the response ends (sdk.ts). Before `listen`; nothing with tracing off. An
 * unmatched path keeps the method alone as its name.
 */
export function traceRoutes(app: INestApplication): void {
  if (!tracingOn()) return;
  const adapter = app.getHttpAdapter();
  if (adapter.getType() !== 'fastify') return;
  (adapter.getInstance() as FastifyRouteHooks).addHook('onRequest', (request, _reply, done) => {
    const template = request.routeOptions.url && routeTemplate(request.routeOptions.url);
    if (template) {
      trace.getActiveSpan()?.updateName(`${request.method} ${template}`).setAttribute('http.route', template);
    }
    done();
  });
}
