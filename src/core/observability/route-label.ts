import { methodLabel, routeTemplate } from '../tracing/http-route';

/**
 * The bounded label values of a request (API.md section 20): its method, its route's template,
 * never a path or a query string of the request.
 */

export const UNMATCHED_ROUTE = 'unmatched';
/** Swagger UI's page and assets: one value, whatever the adapter serves them with. */
const DOCS_ROUTE = '/rest/docs';

export { methodLabel };

/**
 * The `http_route` label: the template of the route that took the request, in OpenAPI's spelling
 * (`/rest/people/:id` → `/rest/people/{id}`), the same on Express (the route's path) and Fastify
 * (`routeOptions.url`). Swagger UI's pages are `/rest/docs`; the catch-all under /rest (a path of
 * no route: a wildcard template) and a request no route took are `unmatched`.
 */
export function routeLabel(template: string | undefined, path: string): string {
  if (path === DOCS_ROUTE || path.startsWith(`${DOCS_ROUTE}/`)) return DOCS_ROUTE;
  return (template !== undefined && routeTemplate(template)) || UNMATCHED_ROUTE;
}
