/** The facts of a route, as the route table (route-table.ts) writes them. */

import type { Action } from '../model/access';

export type { Action };

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** The query parameters of the collection routes (documented in openapi/query-parameter.docs.ts). */
export type QueryParam =
  | 'filter'
  | 'order_by'
  | 'limit'
  | 'starting_after'
  | 'ending_before'
  | 'depth'
  | 'fields'
  | 'upsert'
  | 'soft_delete'
  | 'group_by'
  | 'aggregate'
  | 'timezone'
  | 'include_records_sample'
  | 'order_by_for_records'
  | 'format';

/**
 * The body a route takes: a whole record (`create`), an array of them (`createMany`), a partial
 * record (`update`), a duplicates request, a merge request; none when absent. (With `upsert=true`,
 * creates take partial records.)
 */
export type BodyShape = 'create' | 'createMany' | 'update' | 'duplicates' | 'merge';

/**
 * What the answer holds under `data`: one record, a list of records, a deletion (`{id}` or the
 * soft-deleted record, per record), a page, duplicates results, groups (a bare array), a signed link
 * (`link`); no JSON envelope: `file` streams a stored file's bytes (API.md section 16), `export` a
 * stream of records (NDJSON or CSV, API.md section 15).
 */
export type AnswerShape =
  'record' | 'records' | 'deleted' | 'deletedMany' | 'page' | 'duplicates' | 'groups' | 'file' | 'link' | 'export';

/** Headers a route reads or answers, documented with it. */
export type RouteHeader = 'etag' | 'ifMatch' | 'idempotencyKey' | 'prefer';

export interface CollectionRoute {
  /** The handler's name, and the route's name everywhere else. */
  name: string;
  method: HttpMethod;
  /** Path under /rest with `{plural}` for the collection and `{id}` for a record id. */
  path: string;
  /** Query parameters accepted; any other is a 400 naming them. `filter` is required where `filterRequired`. */
  params: readonly QueryParam[];
  filterRequired?: boolean;
  body?: BodyShape;
  /** Key of the answer under `data`, with `{plural}`, `{singular}`, `{Pascal}`, `{PascalPlural}` (none: a bare array). */
  answerKey?: string;
  answer: AnswerShape;
  /** The actions a key's role must grant on the collection (every one of them). */
  actions: readonly Action[];
  status: 200 | 201;
  headers?: readonly RouteHeader[];
  /** An older form of another route: same behaviour, documented as deprecated, listed last. */
  aliasOf?: string;
  /** Reachable without a key too (a signed file link, API.md section 16). */
  signedLink?: boolean;
}
