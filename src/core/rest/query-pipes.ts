import { Inject, Injectable, PipeTransform, Type } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { parseBulkQuery } from '../query/bulk-query';
import { parseExportQuery } from '../query/export-query';
import { parseGroupByQuery } from '../query/group-by-query';
import { parseListQuery } from '../query/list-query';
import { parseBoolean } from '../query/parse-params';
import { parseShape } from '../query/record-shape';
import { COLLECTION_ROUTES } from '../routes/route-table';
import { CollectionRoute } from '../routes/route-types';
import { KeyRing } from '../security/keys';
import { readParams } from './request-params';
import { QueryInput } from './request-inputs';
import type { Access } from '../model/access';

/** The parsed `soft_delete` of a delete. */
export interface DeleteQuery {
  soft: boolean;
}

/** What the pipes read a query string with: the collection, the limits of the configuration, the key's access. */
interface QueryContext {
  meta: CollectionMeta;
  config: AppConfig;
  cursorKey: Buffer;
  access: Access;
}

type Params = Record<string, string | undefined>;
type Parser = (params: Params, context: QueryContext) => unknown;

const bulk: Parser = (params, { meta, config, access }) => parseBulkQuery(meta, params, config.maxFilterDepth, access);

/**
 * What each route's query string becomes (a ListQuery, a BulkQuery, a GroupByQuery, an ExportQuery, a DeleteQuery,
 * or the Shape of the records answered), by route name. `upsert` of the creates is read by their
 * body pipe, with the body.
 */
const PARSERS: Record<string, Parser> = {
  findMany: (params, { meta, config, cursorKey, access }) => parseListQuery(meta, params, config, cursorKey, access),
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
  groupBy: (params, { meta, config, access }) => parseGroupByQuery(meta, params, config.maxFilterDepth, access),
  exportRecords: (params, { meta, config, access }) => parseExportQuery(meta, params, config.maxFilterDepth, access),
};

/** The query-string pipe of one route of one collection: the route's parameters only, parsed into its typed value. */
function queryPipe(plural: string, route: CollectionRoute): Type<PipeTransform> {
  const parse: Parser = PARSERS[route.name] ?? ((params, { meta, access }) => parseShape(meta, params, access));
  @Injectable()
  class QueryPipe implements PipeTransform<QueryInput, unknown> {
    private readonly meta: CollectionMeta;
    constructor(
      catalog: CollectionCatalog,
      @Inject(APP_CONFIG) private readonly config: AppConfig,
      private readonly keys: KeyRing,
    ) {
      this.meta = catalog.require(plural);
    }
    transform({ query, access }: QueryInput): unknown {
      const context = { meta: this.meta, config: this.config, cursorKey: this.keys.cursorKey, access };
      return parse(readParams(query, route.params), context);
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
