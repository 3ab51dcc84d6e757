import { Body, Controller, Delete, Get, Param, Patch, Put, Query, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Actor } from '../auth/request-actor.decorator';
import { ResponseHeaders, SetHeader } from '../http/response-headers.decorator';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionDefinition } from '../model/collection-definition';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor, Row } from '../model/record';
import { BulkOperationDocs } from '../openapi/bulk-operation.docs';
import { BulkQuery } from '../query/bulk-query';
import { GroupByQuery } from '../query/group-by-query';
import { Shape } from '../query/record-shape';
import { RecordBulkWrites } from '../records/bulk-writes';
import { IfMatch } from '../records/etag';
import { RecordDuplicates } from '../records/record-duplicates';
import { RecordGroups } from '../records/record-groups';
import { MergeInput, RecordMerges } from '../records/record-merges';
import { RecordReads } from '../records/record-reads';
import { RecordUpserts } from '../records/record-upserts';
import { RecordWrites } from '../records/record-writes';
import { bodyPipesFor, UuidParamPipe } from './body-pipes';
import { DeleteQuery, queryPipesFor } from './query-pipes';
import { IfMatchHeader } from './request-headers';

/** What the bulk routes need of the point routes' controller. */
interface PointRoutes {
  readonly meta: CollectionMeta;
  updateOne(
    id: string,
    body: Row,
    shape: Shape,
    actor: RequestActor,
    ifMatch: IfMatch | undefined,
    header: SetHeader,
  ): Promise<unknown>;
  restoreOne(id: string, shape: Shape, actor: RequestActor, header: SetHeader): Promise<unknown>;
}

type PointRoutesClass = new (
  catalog: CollectionCatalog,
  reads: RecordReads,
  writes: RecordWrites,
  duplicates: RecordDuplicates,
  upserts: RecordUpserts,
) => PointRoutes;

/**
 * Adds the routes of API.md sections 11 and 12 to a collection's controller: update, delete and
 * restore many by filter, merge, the older route forms kept as aliases (PUT for PATCH,
 * `/restore/<collection>/...`), and group by. They are declared on the subclass so that the router
 * registers their fixed paths (`/people/restore`, `/people/groupBy`) before the `/people/:id` ones.
 */
export function withBulkRoutes(def: CollectionDefinition, Base: PointRoutesClass): Type<object> {
  const { UpdateBodyPipe, MergeBodyPipe } = bodyPipesFor(def);
  const { BulkQueryPipe, BulkDeleteQueryPipe, MergeShapePipe, WriteShapePipe, GroupByQueryPipe } = queryPipesFor(
    def.plural,
  );
  const docs = new BulkOperationDocs(def);
  const many = (records: unknown[], verb: string) => ({ data: { [`${verb}${def.pascalPlural}`]: records } });

  @ApiTags(def.plural)
  @ApiBearerAuth()
  @Controller()
  class CrudController extends Base {
    constructor(
      catalog: CollectionCatalog,
      reads: RecordReads,
      writes: RecordWrites,
      duplicates: RecordDuplicates,
      upserts: RecordUpserts,
      readonly bulk: RecordBulkWrites,
      readonly merges: RecordMerges,
      readonly groups: RecordGroups,
    ) {
      super(catalog, reads, writes, duplicates, upserts);
    }

    @Get(`${def.plural}/groupBy`)
    @docs.groupBy()
    async groupBy(@Query(GroupByQueryPipe) query: GroupByQuery) {
      return this.groups.groupBy(this.meta, query);
    }

    @Patch(`${def.plural}/merge`)
    @docs.merge()
    async merge(
      @Body(MergeBodyPipe) input: MergeInput,
      @Query(MergeShapePipe) shape: Shape,
      @Actor() actor: RequestActor,
    ) {
      return { data: { [`merge${def.pascal}`]: await this.merges.merge(this.meta, input, shape, actor) } };
    }

    @Patch(`${def.plural}/restore`)
    @docs.restoreMany()
    async restoreMany(@Query(BulkQueryPipe) query: BulkQuery, @Actor() actor: RequestActor) {
      return many(await this.bulk.restoreMany(this.meta, query, actor), 'restore');
    }

    @Patch(`restore/${def.plural}`)
    @docs.restoreMany('alias')
    async restoreManyAlias(@Query(BulkQueryPipe) query: BulkQuery, @Actor() actor: RequestActor) {
      return this.restoreMany(query, actor);
    }

    @Patch(`restore/${def.plural}/:id`)
    @docs.restoreOneAlias()
    async restoreOneAlias(
      @Param('id', UuidParamPipe) id: string,
      @Query(WriteShapePipe) shape: Shape,
      @Actor() actor: RequestActor,
      @ResponseHeaders() header: SetHeader,
    ) {
      return this.restoreOne(id, shape, actor, header);
    }

    @Patch(def.plural)
    @docs.updateMany()
    async updateMany(
      @Body(UpdateBodyPipe) body: Row,
      @Query(BulkQueryPipe) query: BulkQuery,
      @Actor() actor: RequestActor,
    ) {
      return many(await this.bulk.updateMany(this.meta, query, body, actor), 'update');
    }

    @Put(def.plural)
    @docs.updateMany('alias')
    async updateManyAlias(
      @Body(UpdateBodyPipe) body: Row,
      @Query(BulkQueryPipe) query: BulkQuery,
      @Actor() actor: RequestActor,
    ) {
      return this.updateMany(body, query, actor);
    }

    @Delete(def.plural)
    @docs.deleteMany()
    async deleteMany(@Query(BulkDeleteQueryPipe) query: BulkQuery & DeleteQuery, @Actor() actor: RequestActor) {
      return many(await this.bulk.deleteMany(this.meta, query, query.soft, actor), 'delete');
    }

    @Put(`${def.plural}/:id`)
    @docs.updateOneAlias()
    async updateOneAlias(
      @Param('id', UuidParamPipe) id: string,
      @Body(UpdateBodyPipe) body: Row,
      @Query(WriteShapePipe) shape: Shape,
      @Actor() actor: RequestActor,
      @IfMatchHeader() ifMatch: IfMatch | undefined,
      @ResponseHeaders() header: SetHeader,
    ) {
      return this.updateOne(id, body, shape, actor, ifMatch, header);
    }
  }

  Object.defineProperty(CrudController, 'name', { value: `${def.pascalPlural}CrudController` });
  return CrudController;
}
