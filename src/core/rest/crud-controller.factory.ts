import { Controller, Inject, Optional, Param, Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Actor } from '../auth/request-actor.decorator';
import { Reading, ReadRequest } from '../http/replica-reads';
import { ResponseHeaders, SetHeader } from '../http/response-headers.decorator';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionDefinition } from '../model/collection-definition';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor, Row } from '../model/record';
import { BulkQuery } from '../query/bulk-query';
import { ExportQuery } from '../query/export-query';
import { GroupByQuery } from '../query/group-by-query';
import { ListQuery } from '../query/list-query';
import { Shape } from '../query/record-shape';
import { IfMatch } from '../records/etag';
import { CountMode } from '../records/record-counts';
import { DuplicatesInput } from '../records/record-duplicates';
import { MergeInput } from '../records/record-merges';
import { RecordServices } from '../records/record-services';
import { bodyPipesFor, CreateInput, UuidParamPipe } from './body-pipes';
import { exportFile } from './export-file';
import { UploadReceiver } from './file-uploads';
import { CreateBody, RouteBody, RouteQuery } from './request-inputs';
import { DeleteQuery, queryPipesFor } from './query-pipes';
import { CountPreference, IdempotencyKey, IfMatchHeader } from './request-headers';
import { duplicatesAnswer, pageAnswer, recordAnswer } from './record-answers';
import { answerKeys, inRegistrationOrder, routeMapping } from './route-mapping';

/**
 * The controller of one collection, from its definition and the route table (routes/route-table.ts):
 * one handler per route, mapped by `@route(name)`, registered in the table's order. Handlers are
 * thin: pipes (built once per collection) have parsed every input into a typed value, the record
 * services do the work, record-answers.ts shapes the envelope. Documented by openapi/route-operations.ts.
 */
export function createCrudController(def: CollectionDefinition): Type<object> {
  const body = bodyPipesFor(def);
  const query = queryPipesFor(def.plural);
  const key = answerKeys(def);
  const route = routeMapping(def);
  const [one, many] = [`POST /${def.plural}`, `POST /batch/${def.plural}`]; // the scopes of Idempotency-Keys

  @ApiExcludeController()
  @Controller()
  class CrudController {
    readonly meta: CollectionMeta;

    constructor(
      catalog: CollectionCatalog,
      readonly records: RecordServices,
      @Optional() @Inject(UploadReceiver) readonly uploads?: UploadReceiver, // a collection with files has one
    ) {
      this.meta = catalog.require(def.plural);
    }

    @route('findMany')
    async findMany(
      @RouteQuery(query.findMany) list: ListQuery,
      @CountPreference() count: CountMode | undefined,
      @Reading() { access, reads }: ReadRequest,
      @ResponseHeaders() header: SetHeader,
    ) {
      if (count) header('Preference-Applied', `count=${count}`);
      return pageAnswer(def.plural, await this.records.reads.findMany(this.meta, list, access, count, reads));
    }

    @route('exportRecords')
    async exportRecords(
      @RouteQuery(query.exportRecords) exported: ExportQuery,
      @Reading() { access, reads }: ReadRequest,
      @ResponseHeaders() header: SetHeader,
    ) {
      return exportFile(await this.records.exports.open(this.meta, exported, access, reads), header);
    }

    @route('createOne')
    async createOne(
      @CreateBody(undefined, body.CreateOneBodyPipe) input: CreateInput,
      @RouteQuery(query.createOne) shape: Shape,
      @Actor() actor: RequestActor,
      @IdempotencyKey() idempotencyKey: string | undefined,
      @ResponseHeaders() header: SetHeader,
    ) {
      const created = input.multipart
        ? await this.uploads!.receive(this.meta, input.multipart, shape, actor, idempotencyKey)
        : await this.records.createOrUpsert(this.meta, one, input, shape, actor, { idempotencyKey });
      if (created.replayed) header('Idempotent-Replayed', 'true');
      return recordAnswer(key('createOne'), created.records[0], created.etag, header);
    }

    @route('createMany')
    async createMany(
      @CreateBody(undefined, body.CreateManyBodyPipe) input: CreateInput,
      @RouteQuery(query.createMany) shape: Shape,
      @Actor() actor: RequestActor,
      @IdempotencyKey() idempotencyKey: string | undefined,
      @ResponseHeaders() header: SetHeader,
    ) {
      const options = { idempotencyKey, indexed: true };
      const { records, replayed } = await this.records.createOrUpsert(this.meta, many, input, shape, actor, options);
      if (replayed) header('Idempotent-Replayed', 'true');
      return { data: { [key('createMany')]: records } };
    }

    @route('findOne')
    async findOne(
      @Param('id', UuidParamPipe) id: string,
      @RouteQuery(query.findOne) shape: Shape,
      @Reading() { access, reads }: ReadRequest,
      @ResponseHeaders() header: SetHeader,
    ) {
      const { record, etag } = await this.records.reads.findOne(this.meta, id, shape, access, reads);
      return recordAnswer(key('findOne'), record, etag, header);
    }

    @route('updateOne')
    async updateOne(
      @Param('id', UuidParamPipe) id: string,
      @RouteBody(body.UpdateBodyPipe) input: Row,
      @RouteQuery(query.updateOne) shape: Shape,
      @Actor() actor: RequestActor,
      @IfMatchHeader() ifMatch: IfMatch | undefined,
      @ResponseHeaders() header: SetHeader,
    ) {
      const { record, etag } = await this.records.writes.updateOne(this.meta, id, input, shape, actor, ifMatch);
      return recordAnswer(key('updateOne'), record, etag, header);
    }

    @route('deleteOne')
    async deleteOne(
      @Param('id', UuidParamPipe) id: string,
      @RouteQuery(query.deleteOne) options: DeleteQuery,
      @Actor() actor: RequestActor,
      @IfMatchHeader() ifMatch: IfMatch | undefined,
    ) {
      const deleted = await this.records.writes.deleteOne(this.meta, id, options.soft, actor, ifMatch);
      return { data: { [key('deleteOne')]: deleted } };
    }

    @route('findDuplicates')
    async findDuplicates(
      @RouteBody(body.DuplicatesBodyPipe) input: DuplicatesInput,
      @RouteQuery(query.findDuplicates) shape: Shape,
      @Reading() { access, reads }: ReadRequest,
    ) {
      return duplicatesAnswer(def, await this.records.duplicates.find(this.meta, input, shape, access, reads));
    }

    @route('updateMany')
    async updateMany(
      @RouteBody(body.UpdateBodyPipe) input: Row,
      @RouteQuery(query.updateMany) bulk: BulkQuery,
      @Actor() actor: RequestActor,
    ) {
      return { data: { [key('updateMany')]: await this.records.bulk.updateMany(this.meta, bulk, input, actor) } };
    }

    @route('deleteMany')
    async deleteMany(@RouteQuery(query.deleteMany) bulk: BulkQuery & DeleteQuery, @Actor() actor: RequestActor) {
      return { data: { [key('deleteMany')]: await this.records.bulk.deleteMany(this.meta, bulk, bulk.soft, actor) } };
    }

    @route('restoreMany')
    async restoreMany(@RouteQuery(query.restoreMany) bulk: BulkQuery, @Actor() actor: RequestActor) {
      return { data: { [key('restoreMany')]: await this.records.bulk.restoreMany(this.meta, bulk, actor) } };
    }

    @route('restoreOne')
    async restoreOne(
      @Param('id', UuidParamPipe) id: string,
      @RouteQuery(query.restoreOne) shape: Shape,
      @Actor() actor: RequestActor,
      @ResponseHeaders() header: SetHeader,
    ) {
      const { record, etag } = await this.records.writes.restoreOne(this.meta, id, shape, actor);
      return recordAnswer(key('restoreOne'), record, etag, header);
    }

    @route('groupBy')
    async groupBy(@RouteQuery(query.groupBy) groups: GroupByQuery, @Reading() { access, reads }: ReadRequest) {
      return this.records.groups.groupBy(this.meta, groups, access, reads);
    }

    @route('merge')
    async merge(
      @RouteBody(body.MergeBodyPipe) input: MergeInput,
      @RouteQuery(query.merge) shape: Shape,
      @Actor() actor: RequestActor,
    ) {
      return { data: { [key('merge')]: await this.records.merges.merge(this.meta, input, shape, actor) } };
    }

    // older route forms of another method (aliasOf in the table; those of the same method are paths of routeMapping)
    @route('updateOneAlias')
    async updateOneAlias(
      @Param('id', UuidParamPipe) id: string,
      @RouteBody(body.UpdateBodyPipe) input: Row,
      @RouteQuery(query.updateOneAlias) shape: Shape,
      @Actor() actor: RequestActor,
      @IfMatchHeader() ifMatch: IfMatch | undefined,
      @ResponseHeaders() header: SetHeader,
    ) {
      return this.updateOne(id, input, shape, actor, ifMatch, header);
    }

    @route('updateManyAlias')
    async updateManyAlias(
      @RouteBody(body.UpdateBodyPipe) input: Row,
      @RouteQuery(query.updateManyAlias) bulk: BulkQuery,
      @Actor() actor: RequestActor,
    ) {
      return this.updateMany(input, bulk, actor);
    }
  }

  inRegistrationOrder(CrudController.prototype);
  Object.defineProperty(CrudController, 'name', { value: `${def.pascalPlural}CrudController` });
  return CrudController;
}
