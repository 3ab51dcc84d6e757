import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Actor } from '../auth/request-actor.decorator';
import { CrudOperationDocs } from '../openapi/crud-operation.docs';
import { bodyPipesFor, UuidParamPipe } from './body-pipes';
import { CollectionDefinition } from '../model/collection-definition';
import { CollectionMeta } from '../model/collection-meta';
import { CrudService, DuplicatesInput } from '../records/crud.service';
import { RawQuery } from './request-params';
import { RequestActor } from '../repository/record-writer';
import { ResponseHeaders, SetHeader } from '../http/response-headers.decorator';
import { idempotencyRequest } from '../idempotency/idempotency.store';
import { ApiRecord } from '../repository/record-codec';
import { countPreference, parseIfMatch } from './preconditions';

/**
 * Builds the controller of one collection from its definition: every route of API.md
 * section 3, with envelopes named after the collection and DTO classes bound as values
 * (so validation never depends on erased generic types).
 */
export function createCrudController(def: CollectionDefinition): Type<object> {
  const { CreateOneBodyPipe, CreateManyBodyPipe, UpdateBodyPipe, DuplicatesBodyPipe } = bodyPipesFor(def);
  const docs = new CrudOperationDocs(def);
  const one = `${def.plural}/:id`;

  @ApiTags(def.plural)
  @ApiBearerAuth()
  @Controller()
  class CrudController {
    private collection?: CollectionMeta;

    constructor(readonly crud: CrudService) {}

    get meta(): CollectionMeta {
      return (this.collection ??= this.crud.meta(def.plural));
    }

    @Get(def.plural)
    @docs.findMany()
    async findMany(@Query() query: RawQuery, @Headers('prefer') prefer: unknown, @ResponseHeaders() header: SetHeader) {
      const count = countPreference(prefer);
      if (count) header('Preference-Applied', `count=${count}`);
      const { records, pageInfo, totalCount } = await this.crud.findMany(this.meta, query, count);
      return { data: { [def.plural]: records }, pageInfo, totalCount };
    }

    @Post(def.plural)
    @HttpCode(201)
    @docs.createOne()
    async createOne(
      @Body(CreateOneBodyPipe) body: Record<string, unknown>,
      @Query() query: RawQuery,
      @Actor() actor: RequestActor,
      @Headers('idempotency-key') key: unknown,
      @ResponseHeaders() header: SetHeader,
    ) {
      const answer = await this.crud.create(this.meta, [body], query, actor, {
        indexed: false,
        envelope: ([record]: ApiRecord[]) => ({ data: { [`create${def.pascal}`]: record } }),
        idempotency: idempotencyRequest(key, actor.apiKeyId, `POST /${def.plural}`, query, body),
      });
      if (answer.etag) header('ETag', answer.etag);
      if (answer.replayed) header('Idempotent-Replayed', 'true');
      return answer.body;
    }

    @Post(`batch/${def.plural}`)
    @HttpCode(201)
    @docs.createMany()
    async createMany(
      @Body(CreateManyBodyPipe) body: Record<string, unknown>[],
      @Query() query: RawQuery,
      @Actor() actor: RequestActor,
      @Headers('idempotency-key') key: unknown,
      @ResponseHeaders() header: SetHeader,
    ) {
      const answer = await this.crud.create(this.meta, body, query, actor, {
        indexed: true,
        envelope: (records: ApiRecord[]) => ({ data: { [`create${def.pascalPlural}`]: records } }),
        idempotency: idempotencyRequest(key, actor.apiKeyId, `POST /batch/${def.plural}`, query, body),
      });
      if (answer.replayed) header('Idempotent-Replayed', 'true');
      return answer.body;
    }

    @Post(`${def.plural}/duplicates`)
    @HttpCode(200)
    @docs.findDuplicates()
    async findDuplicates(@Body(DuplicatesBodyPipe) body: DuplicatesInput, @Query() query: RawQuery) {
      const results = await this.crud.findDuplicates(this.meta, body, query);
      return {
        data: results.map(({ records, ...rest }) => ({ ...rest, companyDuplicates: records, [`${def.singular}Duplicates`]: records })),
      };
    }

    @Get(one)
    @docs.findOne()
    async findOne(@Param('id', UuidParamPipe) id: string, @Query() query: RawQuery, @ResponseHeaders() header: SetHeader) {
      const { record, etag } = await this.crud.findOne(this.meta, id, query);
      header('ETag', etag);
      return { data: { [def.singular]: record } };
    }

    @Patch(one)
    @docs.updateOne()
    async updateOne(
      @Param('id', UuidParamPipe) id: string,
      @Body(UpdateBodyPipe) body: Record<string, unknown>,
      @Query() query: RawQuery,
      @Actor() actor: RequestActor,
      @Headers('if-match') ifMatch: unknown,
      @ResponseHeaders() header: SetHeader,
    ) {
      const { record, etag } = await this.crud.updateOne(this.meta, id, body, query, actor, parseIfMatch(ifMatch));
      header('ETag', etag);
      return { data: { [`update${def.pascal}`]: record } };
    }

    @Delete(one)
    @docs.deleteOne()
    async deleteOne(
      @Param('id', UuidParamPipe) id: string,
      @Query() query: RawQuery,
      @Actor() actor: RequestActor,
      @Headers('if-match') ifMatch: unknown,
    ) {
      return { data: { [`delete${def.pascal}`]: await this.crud.deleteOne(this.meta, id, query, actor, parseIfMatch(ifMatch)) } };
    }

    @Patch(`${one}/restore`)
    @docs.restoreOne()
    async restoreOne(@Param('id', UuidParamPipe) id: string, @Query() query: RawQuery, @Actor() actor: RequestActor, @ResponseHeaders() header: SetHeader) {
      const { record, etag } = await this.crud.restoreOne(this.meta, id, query, actor);
      header('ETag', etag);
      return { data: { [`restore${def.pascal}`]: record } };
    }
  }

  Object.defineProperty(CrudController, 'name', { value: `${def.pascalPlural}CrudController` });
  return CrudController;
}
