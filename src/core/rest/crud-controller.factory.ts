import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Type } from '@nestjs/common';
import { Actor } from '../auth/request-actor.decorator';
import { ResponseHeaders, SetHeader } from '../http/response-headers.decorator';
import { idempotencyRequest } from '../idempotency/idempotency.store';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionDefinition } from '../model/collection-definition';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor, Row } from '../model/record';
import { ListQuery } from '../query/list-query';
import { Shape } from '../query/record-shape';
import { CrudOperationDocs } from '../openapi/crud-operation.docs';
import { IfMatch } from '../records/etag';
import { CountMode } from '../records/record-counts';
import { DuplicatesInput, RecordDuplicates } from '../records/record-duplicates';
import { RecordReads } from '../records/record-reads';
import { RecordUpserts } from '../records/record-upserts';
import { RecordWrites } from '../records/record-writes';
import { bodyPipesFor, CreateBody, CreateInput, UuidParamPipe } from './body-pipes';
import { withBulkRoutes } from './bulk-routes';
import { DeleteQuery, queryPipesFor } from './query-pipes';
import { CountPreference, IdempotencyKey, IfMatchHeader } from './request-headers';

/**
 * Builds the controller of one collection from its definition: every route of API.md
 * section 3. Handlers are thin: pipes and parameter decorators have parsed every input into a
 * typed value, the record services do the work, the handler names the envelope.
 * DTO classes are bound as values (validation never depends on erased generic types).
 */
export function createCrudController(def: CollectionDefinition): Type<object> {
  const { CreateOneBodyPipe, CreateManyBodyPipe, UpdateBodyPipe, DuplicatesBodyPipe } = bodyPipesFor(def);
  const { ListQueryPipe, FindOneShapePipe, WriteShapePipe, DuplicatesShapePipe, DeleteQueryPipe, CreateShapePipe } =
    queryPipesFor(def.plural);
  const docs = new CrudOperationDocs(def);
  const one = `${def.plural}/:id`;
  const duplicatesKey = `${def.singular}Duplicates`;

  class CrudController {
    readonly meta: CollectionMeta;

    constructor(
      catalog: CollectionCatalog,
      readonly reads: RecordReads,
      readonly writes: RecordWrites,
      readonly duplicates: RecordDuplicates,
      readonly upserts: RecordUpserts,
    ) {
      this.meta = catalog.require(def.plural);
    }

    /** Create or upsert (`?upsert=true`) records, with an optional Idempotency-Key. */
    async createOrUpsert(
      route: string,
      input: CreateInput,
      shape: Shape,
      actor: RequestActor,
      key: string | undefined,
      indexed: boolean,
    ) {
      const idempotency = idempotencyRequest(key, actor.apiKeyId, route, input.upsert, shape, input.records);
      const options = { indexed, idempotency };
      return input.upsert
        ? this.upserts.upsert(this.meta, input.records, shape, actor, options)
        : this.writes.create(this.meta, input.records, shape, actor, options);
    }

    @Get(def.plural)
    @docs.findMany()
    async findMany(
      @Query(ListQueryPipe) query: ListQuery,
      @CountPreference() count: CountMode | undefined,
      @ResponseHeaders() header: SetHeader,
    ) {
      if (count) header('Preference-Applied', `count=${count}`);
      const { records, pageInfo, totalCount } = await this.reads.findMany(this.meta, query, count);
      return { data: { [def.plural]: records }, pageInfo, totalCount };
    }

    @Post(def.plural)
    @HttpCode(201)
    @docs.createOne()
    async createOne(
      @CreateBody(undefined, CreateOneBodyPipe) input: CreateInput,
      @Query(CreateShapePipe) shape: Shape,
      @Actor() actor: RequestActor,
      @IdempotencyKey() key: string | undefined,
      @ResponseHeaders() header: SetHeader,
    ) {
      const { records, etag, replayed } = await this.createOrUpsert(
        `POST /${def.plural}`,
        input,
        shape,
        actor,
        key,
        false,
      );
      if (etag) header('ETag', etag);
      if (replayed) header('Idempotent-Replayed', 'true');
      return { data: { [`create${def.pascal}`]: records[0] } };
    }

    @Post(`batch/${def.plural}`)
    @HttpCode(201)
    @docs.createMany()
    async createMany(
      @CreateBody(undefined, CreateManyBodyPipe) input: CreateInput,
      @Query(CreateShapePipe) shape: Shape,
      @Actor() actor: RequestActor,
      @IdempotencyKey() key: string | undefined,
      @ResponseHeaders() header: SetHeader,
    ) {
      const { records, replayed } = await this.createOrUpsert(
        `POST /batch/${def.plural}`,
        input,
        shape,
        actor,
        key,
        true,
      );
      if (replayed) header('Idempotent-Replayed', 'true');
      return { data: { [`create${def.pascalPlural}`]: records } };
    }

    @Post(`${def.plural}/duplicates`)
    @HttpCode(200)
    @docs.findDuplicates()
    async findDuplicates(@Body(DuplicatesBodyPipe) body: DuplicatesInput, @Query(DuplicatesShapePipe) shape: Shape) {
      const results = await this.duplicates.find(this.meta, body, shape);
      // Twenty's published examples name the list companyDuplicates for every collection. Built
      // field by field: a rest/spread copy gave every answer object a hidden class of its own
      return {
        data: results.map(({ totalCount, pageInfo, records }) => ({
          totalCount,
          pageInfo,
          companyDuplicates: records,
          [duplicatesKey]: records,
        })),
      };
    }

    @Get(one)
    @docs.findOne()
    async findOne(
      @Param('id', UuidParamPipe) id: string,
      @Query(FindOneShapePipe) shape: Shape,
      @ResponseHeaders() header: SetHeader,
    ) {
      const { record, etag } = await this.reads.findOne(this.meta, id, shape);
      header('ETag', etag);
      return { data: { [def.singular]: record } };
    }

    @Patch(one)
    @docs.updateOne()
    async updateOne(
      @Param('id', UuidParamPipe) id: string,
      @Body(UpdateBodyPipe) body: Row,
      @Query(WriteShapePipe) shape: Shape,
      @Actor() actor: RequestActor,
      @IfMatchHeader() ifMatch: IfMatch | undefined,
      @ResponseHeaders() header: SetHeader,
    ) {
      const { record, etag } = await this.writes.updateOne(this.meta, id, body, shape, actor, ifMatch);
      header('ETag', etag);
      return { data: { [`update${def.pascal}`]: record } };
    }

    @Delete(one)
    @docs.deleteOne()
    async deleteOne(
      @Param('id', UuidParamPipe) id: string,
      @Query(DeleteQueryPipe) query: DeleteQuery,
      @Actor() actor: RequestActor,
      @IfMatchHeader() ifMatch: IfMatch | undefined,
    ) {
      return {
        data: { [`delete${def.pascal}`]: await this.writes.deleteOne(this.meta, id, query.soft, actor, ifMatch) },
      };
    }

    @Patch(`${one}/restore`)
    @docs.restoreOne()
    async restoreOne(
      @Param('id', UuidParamPipe) id: string,
      @Query(WriteShapePipe) shape: Shape,
      @Actor() actor: RequestActor,
      @ResponseHeaders() header: SetHeader,
    ) {
      const { record, etag } = await this.writes.restoreOne(this.meta, id, shape, actor);
      header('ETag', etag);
      return { data: { [`restore${def.pascal}`]: record } };
    }
  }

  return withBulkRoutes(def, CrudController);
}
