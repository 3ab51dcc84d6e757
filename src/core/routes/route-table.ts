import { CollectionRoute, QueryParam } from './route-types';

/**
 * The routes of every collection (API.md sections 3, 5, 11, 12 and 15): one row per route, the one
 * place a fact about a route is written. The controllers (rest/), the parameter checks, the
 * answers to unknown routes, the OpenAPI operations (openapi/) and the MCP tools (mcp/) derive
 * from it, and so does the action a key's role must grant to call it.
 */

const LIST: readonly QueryParam[] = [
  'filter',
  'order_by',
  'limit',
  'starting_after',
  'ending_before',
  'depth',
  'fields',
];
const BULK: readonly QueryParam[] = ['filter', 'depth', 'fields'];

/** In the order a user reaches for them (the documentation's order). */
const ROUTES: readonly CollectionRoute[] = [
  {
    name: 'findMany',
    method: 'GET',
    path: '{plural}',
    params: LIST,
    answerKey: '{plural}',
    answer: 'page',
    actions: ['read'],
    status: 200,
    headers: ['prefer'],
  },
  {
    name: 'exportRecords',
    method: 'GET',
    path: '{plural}/export',
    params: ['format', 'filter', 'order_by', 'fields'],
    answer: 'export',
    actions: ['read'],
    status: 200,
  },
  {
    name: 'createOne',
    method: 'POST',
    path: '{plural}',
    params: ['depth', 'fields', 'upsert'],
    body: 'create',
    answerKey: 'create{Pascal}',
    answer: 'record',
    actions: ['create'],
    status: 201,
    headers: ['idempotencyKey', 'etag'],
  },
  {
    name: 'createMany',
    method: 'POST',
    path: 'batch/{plural}',
    params: ['depth', 'fields', 'upsert'],
    body: 'createMany',
    answerKey: 'create{PascalPlural}',
    answer: 'records',
    actions: ['create'],
    status: 201,
    headers: ['idempotencyKey'],
  },
  {
    name: 'findOne',
    method: 'GET',
    path: '{plural}/{id}',
    params: ['depth', 'fields'],
    answerKey: '{singular}',
    answer: 'record',
    actions: ['read'],
    status: 200,
    headers: ['etag'],
  },
  {
    name: 'updateOne',
    method: 'PATCH',
    path: '{plural}/{id}',
    params: ['depth'],
    body: 'update',
    answerKey: 'update{Pascal}',
    answer: 'record',
    actions: ['update'],
    status: 200,
    headers: ['ifMatch', 'etag'],
  },
  {
    name: 'deleteOne',
    method: 'DELETE',
    path: '{plural}/{id}',
    params: ['soft_delete'],
    answerKey: 'delete{Pascal}',
    answer: 'deleted',
    actions: ['delete'],
    status: 200,
    headers: ['ifMatch'],
  },
  {
    name: 'findDuplicates',
    method: 'POST',
    path: '{plural}/duplicates',
    params: ['depth'],
    body: 'duplicates',
    answer: 'duplicates',
    actions: ['read'],
    status: 200,
  },
  {
    name: 'updateMany',
    method: 'PATCH',
    path: '{plural}',
    params: BULK,
    filterRequired: true,
    body: 'update',
    answerKey: 'update{PascalPlural}',
    answer: 'records',
    actions: ['update'],
    status: 200,
  },
  {
    name: 'deleteMany',
    method: 'DELETE',
    path: '{plural}',
    params: ['filter', 'depth', 'fields', 'soft_delete'],
    filterRequired: true,
    answerKey: 'delete{PascalPlural}',
    answer: 'deletedMany',
    actions: ['delete'],
    status: 200,
  },
  {
    name: 'restoreMany',
    method: 'PATCH',
    path: '{plural}/restore',
    params: BULK,
    filterRequired: true,
    answerKey: 'restore{PascalPlural}',
    answer: 'records',
    actions: ['update'],
    status: 200,
  },
  {
    name: 'restoreOne',
    method: 'PATCH',
    path: '{plural}/{id}/restore',
    params: ['depth'],
    answerKey: 'restore{Pascal}',
    answer: 'record',
    actions: ['update'],
    status: 200,
    headers: ['etag'],
  },
  {
    name: 'groupBy',
    method: 'GET',
    path: '{plural}/groupBy',
    params: [
      'group_by',
      'aggregate',
      'filter',
      'order_by',
      'limit',
      'timezone',
      'include_records_sample',
      'order_by_for_records',
    ],
    answer: 'groups',
    actions: ['read'],
    status: 200,
  },
  {
    name: 'merge',
    method: 'PATCH',
    path: '{plural}/merge',
    params: ['depth', 'fields'],
    body: 'merge',
    answerKey: 'merge{Pascal}',
    answer: 'record',
    actions: ['update', 'delete'],
    status: 200,
  },
];

/** An older form of a route: the same facts but its name, method or path (documented as deprecated). */
function alias(
  of: string,
  name: string,
  change: Pick<CollectionRoute, 'method'> | Pick<CollectionRoute, 'path'>,
): CollectionRoute {
  return { ...ROUTES.find((r) => r.name === of)!, name, aliasOf: of, ...change };
}

/** Every route of every collection: the routes, then the older forms kept as aliases. */
export const COLLECTION_ROUTES: readonly CollectionRoute[] = [
  ...ROUTES,
  alias('updateOne', 'updateOneAlias', { method: 'PUT' }),
  alias('updateMany', 'updateManyAlias', { method: 'PUT' }),
  alias('restoreOne', 'restoreOneAlias', { path: 'restore/{plural}/{id}' }),
  alias('restoreMany', 'restoreManyAlias', { path: 'restore/{plural}' }),
];
