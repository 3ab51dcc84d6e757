import { Inject, Injectable, PipeTransform, Type } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { ListQuery, parseListQuery } from '../query/list-query';
import { BulkQuery, parseBulkQuery } from '../query/bulk-query';
import { GroupByQuery, parseGroupByQuery } from '../query/group-by-query';
import { parseBoolean } from '../query/parse-params';
import { parseShape, Shape } from '../query/record-shape';
import { KeyRing } from '../security/keys';
import { RawQuery, readParams, ROUTE_PARAMS } from './request-params';

/** The parsed `soft_delete` of a delete. */
export interface DeleteQuery {
  soft: boolean;
}

/**
 * The query-string pipes of one collection: each turns the raw query of its route into a typed
 * value (a ListQuery, a Shape, a DeleteQuery) once, at the edge, so services never see a string.
 */
export function queryPipesFor(plural: string) {
  @Injectable()
  class ListQueryPipe implements PipeTransform<RawQuery, ListQuery> {
    private readonly meta: CollectionMeta;
    constructor(
      catalog: CollectionCatalog,
      @Inject(APP_CONFIG) private readonly config: AppConfig,
      private readonly keys: KeyRing,
    ) {
      this.meta = catalog.require(plural);
    }
    transform(raw: RawQuery): ListQuery {
      return parseListQuery(this.meta, readParams(raw, ROUTE_PARAMS.findMany), this.config, this.keys.cursorKey);
    }
  }

  /** `depth` and `fields` where the route takes them (create one / many: `upsert` is read by the body pipe, with the body). */
  const shapePipe = (
    route: 'findOne' | 'write' | 'create' | 'duplicates' | 'merge',
  ): Type<PipeTransform<RawQuery, Shape>> => {
    @Injectable()
    class ShapePipe implements PipeTransform<RawQuery, Shape> {
      private readonly meta: CollectionMeta;
      constructor(catalog: CollectionCatalog) {
        this.meta = catalog.require(plural);
      }
      transform(raw: RawQuery): Shape {
        return parseShape(this.meta, readParams(raw, ROUTE_PARAMS[route]));
      }
    }
    return ShapePipe;
  };

  @Injectable()
  class DeleteQueryPipe implements PipeTransform<RawQuery, DeleteQuery> {
    transform(raw: RawQuery): DeleteQuery {
      return { soft: parseBoolean('soft_delete', readParams(raw, ROUTE_PARAMS.delete).soft_delete) };
    }
  }

  /** Update, delete and restore many: the mandatory filter, the shape, and `soft_delete` where a delete takes it. */
  const bulkPipe = (route: 'bulk' | 'bulkDelete'): Type<PipeTransform<RawQuery, BulkQuery & DeleteQuery>> => {
    @Injectable()
    class BulkQueryPipe implements PipeTransform<RawQuery, BulkQuery & DeleteQuery> {
      private readonly meta: CollectionMeta;
      constructor(
        catalog: CollectionCatalog,
        @Inject(APP_CONFIG) private readonly config: AppConfig,
      ) {
        this.meta = catalog.require(plural);
      }
      transform(raw: RawQuery): BulkQuery & DeleteQuery {
        const params: { filter?: string; depth?: string; fields?: string; soft_delete?: string } = readParams(
          raw,
          ROUTE_PARAMS[route],
        );
        // Object.assign, not { ...query, soft }: V8 gives an object spread followed by a property a hidden class of its own on every call
        return Object.assign(parseBulkQuery(this.meta, params, this.config.maxFilterDepth), {
          soft: parseBoolean('soft_delete', params.soft_delete),
        });
      }
    }
    return BulkQueryPipe;
  };

  @Injectable()
  class GroupByQueryPipe implements PipeTransform<RawQuery, GroupByQuery> {
    private readonly meta: CollectionMeta;
    constructor(
      catalog: CollectionCatalog,
      @Inject(APP_CONFIG) private readonly config: AppConfig,
    ) {
      this.meta = catalog.require(plural);
    }
    transform(raw: RawQuery): GroupByQuery {
      return parseGroupByQuery(this.meta, readParams(raw, ROUTE_PARAMS.groupBy), this.config.maxFilterDepth);
    }
  }

  return {
    GroupByQueryPipe,
    ListQueryPipe,
    FindOneShapePipe: shapePipe('findOne'),
    WriteShapePipe: shapePipe('write'),
    DuplicatesShapePipe: shapePipe('duplicates'),
    MergeShapePipe: shapePipe('merge'),
    CreateShapePipe: shapePipe('create'),
    DeleteQueryPipe,
    BulkQueryPipe: bulkPipe('bulk'),
    BulkDeleteQueryPipe: bulkPipe('bulkDelete'),
  };
}
