/** A route of the service itself rather than of a collection: its method, path under /rest and query parameters. */
export interface ServiceRoute {
  name: string;
  method: 'GET';
  path: string;
  params: readonly string[];
}

/** The change feed (API.md section 15): routes of no collection; the unknown-route answers know them too. */
export const CHANGES_ROUTES = {
  head: { name: 'changesHead', method: 'GET', path: 'changes/head', params: [] },
  page: { name: 'changes', method: 'GET', path: 'changes', params: ['since', 'limit', 'collections'] },
  stream: { name: 'changesStream', method: 'GET', path: 'changes/stream', params: ['since', 'collections'] },
} as const satisfies Record<string, ServiceRoute>;

export const SERVICE_ROUTES: readonly ServiceRoute[] = Object.values(CHANGES_ROUTES);
