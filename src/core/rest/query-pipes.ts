import { Inject, Injectable, PipeTransform, Type } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { parseBulkQuery } from '../query/bulk-query';
import { parseGroupByQuery } from '../query/group-by-query';
import { parseListQuery } from '../query/list-query';
import { parseBoolean } from '../query/parse-params';
import { parseShape } from '../query/record-shape';
import { COLLECTION_ROUTES } from '../routes/route-table';
import { CollectionRoute } from '../routes/route-types';
import { KeyRing } from '../security/keys';
import { RawQuery, readParams } from './request-params';

/** The parsed `soft_delete` of a delete. */
export interface DeleteQuery {
  soft: boolean;
}

/** What the pipes read a query string with: the collection and the limits of the configuration. */
interface QueryContext {
  meta: CollectionMeta;
  config: AppConfig;
  cursorKey: Buffer;
}

type Params = Record<string, string | undefined>;
type Parser = (params: Params, context: QueryContext) => unknown;

const bulk: Parser = (params, { meta, config }) => parseBulkQuery(meta, params, config.maxFilterDepth);

/**
 * What each route's query string becomes (a ListQuery, a BulkQuery, a GroupByQuery, a DeleteQuery,
 * or the Shape of the records answered), by route name. `upsert` of the creates is read by their
 * body pipe, with the body.
 */
const PARSERS: Record<string, Parser> = {
  findMany: (params, { meta, config, cursorKey }) => parseListQuery(meta, params, config, cursorKey),
  deleteOne: (params): DeleteQuery => ({ soft: parseBoolean('soft_delete', params.soft_delete) }),
  updateMany: bulk,
  updateManyAlias: bulk,
  restoreMany: bulk,
  restoreManyAlias: bulk,
  // Object.assign, not { ...query, soft }: V8 gives an object spread followed by a property a hidden class of its own on every call
  deleteMany: (params, context) =>
    Object.assign(bulk(params, context) as object, {
      soft: parseBoolean('soft_delete', params.soft_delete),
    }),
  groupBy: (params, { meta, config }) => parseGroupByQuery(meta, params, config.maxFilterDepth),
};

/** The query-string pipe of one route of one collection: the route's parameters only, parsed into its typed value. */
function queryPipe(plural: string, route: CollectionRoute): Type<PipeTransform> {
  const parse: Parser = PARSERS[route.name] ?? ((params, { meta }) => parseShape(meta, params));
  @Injectable()
  class QueryPipe implements PipeTransform<RawQuery, unknown> {
    private readonly context: QueryContext;
    constructor(catalog: CollectionCatalog, @Inject(APP_CONFIG) config: AppConfig, keys: KeyRing) {
      this.context = { meta: catalog.require(plural), config, cursorKey: keys.cursorKey };
    }
    transform(raw: RawQuery): unknown {
      return parse(readParams(raw, route.params), this.context);
    }
  }
  Object.defineProperty(QueryPipe, 'name', { value: `${plural}.${route.name}QueryPipe` });
  return QueryPipe;
}

/**
 * The query-string pipes of one collection, by route name, built once: each turns the raw query of
 * its route into a typed value at the edge, so services never see a string.
 */
export function queryPipesFor(plural: string): Record<string, Type<PipeTransform>> {
  return Object.fromEntries(COLLECTION_ROUTES.map((route) => [route.name, queryPipe(plural, route)]));
}
