import { SetMetadata } from '@nestjs/common';
import type { Action } from '../model/access';

export const ROUTE_ACTIONS = 'crm:routeActions';

/** What a route does: the actions on a collection a key's role must grant (from the route table). */
export interface RouteActionsMeta {
  plural: string;
  actions: readonly Action[];
}

/** Marks a handler with the actions the global guard checks before it runs (403 otherwise). */
export const RouteActions = (meta: RouteActionsMeta) => SetMetadata(ROUTE_ACTIONS, meta);
