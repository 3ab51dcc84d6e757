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

/** The methods named as they are, in metrics and spans alike; any other is `_OTHER` (OpenTelemetry's convention). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);

/** A request's method as a bounded value: itself if standard, else `_OTHER`. */
export function methodLabel(method: string | undefined): string {
  return method !== undefined && KNOWN_METHODS.has(method) ? method : '_OTHER';
}
