import { HttpCode, RequestMapping, RequestMethod } from '@nestjs/common';
import { RouteActions } from '../auth/route-actions.decorator';
import { CollectionNames, fill, registrationOrder, routeNamed, routerPath } from '../routes/route-paths';
import { FILE_ROUTES } from '../routes/file-routes';
import { COLLECTION_ROUTES } from '../routes/route-table';
import { Public } from '../auth/public.decorator';

/**
 * `@route(name)`: maps a handler to the method, path and status of its row of the route table,
 * and to the paths of its aliases of the same method (an alias of another method has a handler).
 */
export function routeMapping(names: CollectionNames): (name: string) => MethodDecorator {
  return (name) => {
    const spec = routeNamed(name);
    const aliases = COLLECTION_ROUTES.filter((r) => r.aliasOf === name && r.method === spec.method);
    const paths = [spec, ...aliases].map((r) => routerPath(r, names));
    const mapping = RequestMapping({ path: paths.length === 1 ? paths[0] : paths, method: RequestMethod[spec.method] });
    const actions = RouteActions({ plural: names.plural, actions: spec.actions });
    return (target, property, descriptor) => {
      mapping(target, property, descriptor);
      HttpCode(spec.status)(target, property, descriptor);
      actions(target, property, descriptor);
    };
  };
}

/** The answer key of each collection route (`createPerson`), by route name. */
export function answerKeys(names: CollectionNames): (name: string) => string {
  const keys = new Map(COLLECTION_ROUTES.map((r) => [r.name, r.answerKey && fill(r.answerKey, names)]));
  return (name) => {
    const key = keys.get(name);
    if (!key) throw new Error(`The route '${name}' has no answer key in the route table`);
    return key;
  };
}

/**
 * Re-defines the handlers on the prototype in the route table's registration order: the router
 * registers a controller's routes in the order of its methods, and literal paths must come before
 * `:id` ones (see registrationOrder). Every route of the table must have its handler.
 */
export function inRegistrationOrder(prototype: object): void {
  for (const spec of registrationOrder()) {
    if (spec.aliasOf && spec.method === routeNamed(spec.aliasOf).method) continue; // a path of its route's handler
    const descriptor = Object.getOwnPropertyDescriptor(prototype, spec.name);
    if (!descriptor) throw new Error(`The route '${spec.name}' of the route table has no handler`);
    delete (prototype as Record<string, unknown>)[spec.name];
    Object.defineProperty(prototype, spec.name, descriptor);
  }
}

/**
 * `@fileRoute(names, name)`: maps a handler of a collection with files to its row of FILE_ROUTES
 * (method, path, status, actions; a route reachable by signed link is public with an optional key).
 */
export function fileRoute(names: CollectionNames, name: string): MethodDecorator {
  const spec = FILE_ROUTES.find((r) => r.name === name);
  if (!spec) throw new Error(`No file route named '${name}' in the route table`);
  const decorators = [
    RequestMapping({ path: routerPath(spec, names), method: RequestMethod[spec.method] }),
    HttpCode(spec.status),
    RouteActions({ plural: names.plural, actions: spec.actions }),
    ...(spec.signedLink ? [Public('keyed')] : []),
  ];
  return (target, property, descriptor) => decorators.forEach((d) => d(target, property, descriptor));
}
