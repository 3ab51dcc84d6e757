import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiHeader, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { CollectionDefinition } from '../model/collection-definition';
import { ErrorEnvelopeSchema, PageInfoSchema } from './envelope.schemas';
import { errors, etagHeader, idempotencyKey, idParam, ifMatch, query, Schema } from './operation-parts';

/** OpenAPI description of each CRUD operation of one collection: operationId, parameters, envelopes. */
export class CrudOperationDocs {
  readonly record: Schema;

  constructor(private readonly def: CollectionDefinition) {
    this.record = { $ref: getSchemaPath(def.response) };
  }

  envelope(key: string, value: Schema): Schema {
    return {
      type: 'object',
      required: ['data'],
      properties: { data: { type: 'object', required: [key], properties: { [key]: value } } },
    };
  }

  operation(operationId: string, summary: string): MethodDecorator {
    return applyDecorators(
      ApiOperation({ operationId, summary }),
      ApiExtraModels(this.def.create, this.def.update, this.def.response, ErrorEnvelopeSchema, PageInfoSchema),
    );
  }

  findMany = () =>
    applyDecorators(
      this.operation(`findMany${this.def.pascalPlural}`, `List ${this.def.plural} (filter, sort, keyset pagination)`),
      query('filter', 'order_by', 'limit', 'starting_after', 'ending_before', 'depth', 'fields'),
      ApiHeader({
        name: 'Prefer',
        required: false,
        description:
          'count=exact (default): totalCount is exact (cached per filter until the collection changes); ' +
          "count=estimated: the planner's estimate (cheap on large tables); count=none: totalCount is null. " +
          'The applied preference is echoed in Preference-Applied.',
        schema: { type: 'string', examples: ['count=none'] },
      }),
      ApiResponse({
        status: 200,
        description: 'A page of records',
        schema: {
          type: 'object',
          required: ['data', 'pageInfo', 'totalCount'],
          properties: {
            data: {
              type: 'object',
              required: [this.def.plural],
              properties: { [this.def.plural]: { type: 'array', items: this.record } },
            },
            pageInfo: { $ref: getSchemaPath(PageInfoSchema) },
            totalCount: {
              type: 'integer',
              nullable: true,
              description:
                'Rows matching the filter, ignoring limit (estimated with Prefer: count=estimated, null with count=none)',
            },
          },
        },
      }),
      errors(400, 401, 429),
    );

  createOne = () =>
    applyDecorators(
      this.operation(`createOne${this.def.pascal}`, `Create (or upsert) one ${this.def.singular}`),
      query('depth', 'upsert'),
      idempotencyKey,
      ApiBody({ type: this.def.create }),
      ApiResponse({
        status: 201,
        description: 'The created record',
        headers: etagHeader,
        schema: this.envelope(`create${this.def.pascal}`, this.record),
      }),
      errors(400, 401, 413, 415, 422, 429),
    );

  createMany = () =>
    applyDecorators(
      this.operation(`createMany${this.def.pascalPlural}`, `Create (or upsert) many ${this.def.plural} (atomic)`),
      query('depth', 'upsert'),
      idempotencyKey,
      ApiBody({
        schema: { type: 'array', items: { $ref: getSchemaPath(this.def.create) }, minItems: 1, maxItems: 200 },
      }),
      ApiResponse({
        status: 201,
        description: 'The created records, in input order',
        schema: this.envelope(`create${this.def.pascalPlural}`, { type: 'array', items: this.record }),
      }),
      errors(400, 401, 413, 415, 422, 429),
    );

  findOne = () =>
    applyDecorators(
      idParam,
      this.operation(`findOne${this.def.pascal}`, `Get one ${this.def.singular}`),
      query('depth', 'fields'),
      ApiResponse({
        status: 200,
        description: 'The record',
        headers: etagHeader,
        schema: this.envelope(this.def.singular, this.record),
      }),
      errors(400, 401, 404, 429),
    );

  updateOne = () =>
    applyDecorators(
      idParam,
      this.operation(`updateOne${this.def.pascal}`, `Update one ${this.def.singular} (partial)`),
      query('depth'),
      ifMatch,
      ApiBody({ type: this.def.update }),
      ApiResponse({
        status: 200,
        description: 'The updated record',
        headers: etagHeader,
        schema: this.envelope(`update${this.def.pascal}`, this.record),
      }),
      errors(400, 401, 404, 412, 413, 415, 429),
    );

  deleteOne = () =>
    applyDecorators(
      idParam,
      this.operation(
        `deleteOne${this.def.pascal}`,
        `Delete one ${this.def.singular} (hard, or soft with soft_delete=true)`,
      ),
      query('soft_delete'),
      ifMatch,
      ApiResponse({
        status: 200,
        description: 'Hard delete: the id; soft delete: the whole record',
        schema: this.envelope(`delete${this.def.pascal}`, this.record),
      }),
      errors(400, 401, 404, 412, 429),
    );

  restoreOne = () =>
    applyDecorators(
      idParam,
      this.operation(`restoreOne${this.def.pascal}`, `Restore one soft-deleted ${this.def.singular}`),
      query('depth'),
      ApiResponse({
        status: 200,
        description: 'The restored record',
        headers: etagHeader,
        schema: this.envelope(`restore${this.def.pascal}`, this.record),
      }),
      errors(400, 401, 404, 429),
    );

  findDuplicates = () => {
    const found = { type: 'array', items: this.record };
    return applyDecorators(
      this.operation(`find${this.def.pascal}Duplicates`, `Find duplicates of ${this.def.plural}`),
      query('depth'),
      ApiBody({
        schema: {
          type: 'object',
          description: 'Exactly one of data (partial records) or ids',
          properties: {
            data: { type: 'array', items: { $ref: getSchemaPath(this.def.update) } },
            ids: { type: 'array', items: { type: 'string', format: 'uuid' } },
          },
        },
      }),
      ApiResponse({
        status: 200,
        description: 'One result per input record (per found id in ids mode)',
        schema: {
          type: 'object',
          required: ['data'],
          properties: {
            data: {
              type: 'array',
              items: {
                type: 'object',
                required: ['totalCount', 'pageInfo', 'companyDuplicates'],
                properties: {
                  totalCount: { type: 'integer' },
                  pageInfo: { $ref: getSchemaPath(PageInfoSchema) },
                  companyDuplicates: found,
                  [`${this.def.singular}Duplicates`]: found,
                },
              },
            },
          },
        },
      }),
      errors(400, 401, 413, 415, 429),
    );
  };
}
