import type { CollectionDefinition } from '../model/collection-definition';
import { FILE_ROUTES } from './file-routes';
import { COLLECTION_ROUTES } from './route-table';
import { IMPORT_ROUTES } from './service-routes';
import { CollectionRoute, HttpMethod } from './route-types';

/** The names a route's templates use (a collection definition has them all). */
export type CollectionNames = Pick<CollectionDefinition, 'plural' | 'singular' | 'pascal' | 'pascalPlural'>;

/** A template with `{plural}`, `{singular}`, `{Pascal}`, `{PascalPlural}` filled in. */
export function fill(template: string, names: CollectionNames): string {
  return template
    .replaceAll('{plural}', names.plural)
    .replaceAll('{singular}', names.singular)
    .replaceAll('{PascalPlural}', names.pascalPlural)
    .replaceAll('{Pascal}', names.pascal);
}

/** The route's path for the router (`people/:id`). */
export function routerPath(route: CollectionRoute, names: CollectionNames): string {
  return fill(route.path, names).replace('{id}', ':id');
}

/** The route's path in the OpenAPI document (`/people/{id}`). */
export function documentPath(route: CollectionRoute, names: CollectionNames): string {
  return `/${fill(route.path, names)}`;
}

export function routeNamed(name: string): CollectionRoute {
  const route = COLLECTION_ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`No route named '${name}' in the route table`);
  return route;
}

const hasParameter = (route: CollectionRoute) => route.path.includes('{id}');

/**
 * The order the router must try a collection's routes in: every path without a record id before
 * those with one, so that `/people/duplicates` or `/people/groupBy` is never read as the record
 * `duplicates` of `/people/:id` (the router tries routes in the order they are registered).
 */
export function registrationOrder(routes: readonly CollectionRoute[] = COLLECTION_ROUTES): CollectionRoute[] {
  return [...routes.filter((r) => !hasParameter(r)), ...routes.filter(hasParameter)];
}

const METHOD_ORDER: HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** The paths of every collection: those of the route table, and the import (`{plural}/import`, IMPORT_ROUTES). */
const PATHS_OF_EVERY_COLLECTION: readonly Pick<CollectionRoute, 'method' | 'path'>[] = [
  ...COLLECTION_ROUTES,
  IMPORT_ROUTES.start,
];

/**
 * The methods a path of a collection takes (its segments after /rest, the collection's plural
 * among them), from the routes whose path it matches most literally: `people/duplicates` takes
 * POST (its own route), and so does `people/import`, not the methods of `people/:id`. Empty when
 * no route has its shape.
 */
export function methodsAt(segments: string[], plural: string, files = false): HttpMethod[] {
  let best: Pick<CollectionRoute, 'method'>[] = [];
  let bestLiterals = -1;
  for (const route of files ? [...PATHS_OF_EVERY_COLLECTION, ...FILE_ROUTES] : PATHS_OF_EVERY_COLLECTION) {
    const pattern = route.path.split('/');
    if (pattern.length !== segments.length) continue;
    let literals = 0;
    const matches = pattern.every((part, i) => {
      if (part === '{id}') return true;
      literals++;
      return (part === '{plural}' ? plural : part) === segments[i];
    });
    if (!matches || literals < bestLiterals) continue;
    if (literals > bestLiterals) best = [];
    bestLiterals = literals;
    best.push(route);
  }
  return METHOD_ORDER.filter((method) => best.some((r) => r.method === method));
}
