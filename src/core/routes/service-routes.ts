/** A route of the service itself rather than of a collection: its method, path under /rest and query parameters. */
export interface ServiceRoute {
  name: string;
  method: 'GET' | 'POST';
  /** Under /rest; `{id}` is a path parameter, `{plural}` any collection's plural. */
  path: string;
  params: readonly string[];
}

/** The path of a route as Nest's router spells it (`imports/:id`). */
export const routerPath = (route: ServiceRoute) => route.path.replace(/\{(\w+)\}/g, ':$1');

/** The change feed (API.md section 15): routes of no collection; the unknown-route answers know them too. */
export const CHANGES_ROUTES = {
  head: { name: 'changesHead', method: 'GET', path: 'changes/head', params: [] },
  page: { name: 'changes', method: 'GET', path: 'changes', params: ['since', 'limit', 'collections'] },
  stream: { name: 'changesStream', method: 'GET', path: 'changes/stream', params: ['since', 'collections'] },
} as const satisfies Record<string, ServiceRoute>;

/** Imports (API.md section 17): the import of any collection, and the job routes. */
export const IMPORT_ROUTES = {
  start: {
    name: 'importRecords',
    method: 'POST',
    path: '{plural}/import',
    params: ['operation', 'atomic', 'max_errors', 'dry_run', 'blank', 'delimiter', 'webhooks'],
  },
  list: { name: 'findManyImports', method: 'GET', path: 'imports', params: ['limit', 'starting_after'] },
  one: { name: 'findOneImport', method: 'GET', path: 'imports/{id}', params: [] },
  stream: { name: 'importProgress', method: 'GET', path: 'imports/{id}/stream', params: [] },
  errors: { name: 'findImportErrors', method: 'GET', path: 'imports/{id}/errors', params: ['format'] },
  cancel: { name: 'cancelImport', method: 'POST', path: 'imports/{id}/cancel', params: [] },
} as const satisfies Record<string, ServiceRoute>;

/** The routes of no collection (the import of a collection is answered with the collection's paths). */
export const SERVICE_ROUTES: readonly ServiceRoute[] = [
  ...Object.values(CHANGES_ROUTES),
  ...Object.values(IMPORT_ROUTES).filter((r) => !r.path.startsWith('{plural}')),
];
