/** A request's path without its query string (which may carry personal data): for logs and metrics. */
export function requestPath(req: { originalUrl?: string; url?: string }): string {
  const url = req.originalUrl ?? req.url ?? '';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}
