import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Type } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Actor } from '../auth/request-actor.decorator';
import { CrudOperationDocs } from '../openapi/crud-operation.docs';
import { bodyPipesFor, UuidParamPipe } from './body-pipes';
import { CollectionDefinition } from './collection-definition';
import { CollectionMeta } from './collection-meta';
import { CrudService, DuplicatesInput } from './crud.service';
import { RawQuery } from './request-params';
import { RequestActor } from './record-writer';

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
    async findMany(@Query() query: RawQuery) {
      const { records, pageInfo, totalCount } = await this.crud.findMany(this.meta, query);
      return { data: { [def.plural]: records }, pageInfo, totalCount };
    }

    @Post(def.plural)
    @HttpCode(201)
    @docs.createOne()
    async createOne(@Body(CreateOneBodyPipe) body: Record<string, unknown>, @Query() query: RawQuery, @Actor() actor: RequestActor) {
      const [record] = await this.crud.createMany(this.meta, [body], query, actor, false);
      return { data: { [`create${def.pascal}`]: record } };
    }

    @Post(`batch/${def.plural}`)
    @HttpCode(201)
    @docs.createMany()
    async createMany(@Body(CreateManyBodyPipe) body: Record<string, unknown>[], @Query() query: RawQuery, @Actor() actor: RequestActor) {
      const records = await this.crud.createMany(this.meta, body, query, actor, true);
      return { data: { [`create${def.pascalPlural}`]: records } };
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
    async findOne(@Param('id', UuidParamPipe) id: string, @Query() query: RawQuery) {
      return { data: { [def.singular]: await this.crud.findOne(this.meta, id, query) } };
    }

    @Patch(one)
    @docs.updateOne()
    async updateOne(
      @Param('id', UuidParamPipe) id: string,
      @Body(UpdateBodyPipe) body: Record<string, unknown>,
      @Query() query: RawQuery,
      @Actor() actor: RequestActor,
    ) {
      return { data: { [`update${def.pascal}`]: await this.crud.updateOne(this.meta, id, body, query, actor) } };
    }

    @Delete(one)
    @docs.deleteOne()
    async deleteOne(@Param('id', UuidParamPipe) id: string, @Query() query: RawQuery, @Actor() actor: RequestActor) {
      return { data: { [`delete${def.pascal}`]: await this.crud.deleteOne(this.meta, id, query, actor) } };
    }

    @Patch(`${one}/restore`)
    @docs.restoreOne()
    async restoreOne(@Param('id', UuidParamPipe) id: string, @Query() query: RawQuery, @Actor() actor: RequestActor) {
      return { data: { [`restore${def.pascal}`]: await this.crud.restoreOne(this.meta, id, query, actor) } };
    }
  }

  Object.defineProperty(CrudController, 'name', { value: `${def.pascalPlural}CrudController` });
  return CrudController;
}
