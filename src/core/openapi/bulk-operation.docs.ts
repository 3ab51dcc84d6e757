import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { CollectionDefinition } from '../model/collection-definition';
import { CollectionMeta } from '../model/collection-meta';
import { aggregateKeys } from '../query/group-by-query';
import { CrudOperationDocs } from './crud-operation.docs';
import { errors, etagHeader, idParam, ifMatch, query } from './operation-parts';
import { QUERY_PARAMETER_DOCS } from './query-parameter.docs';

const bulkFilter = ApiQuery({
  name: 'filter',
  required: true,
  description:
    `Which records (grammar of list filters); mandatory: a write over a whole collection must be asked for explicitly ` +
    `(e.g. id[is]:NOT_NULL). At most BULK_MAX (default 10,000) records per request. ${QUERY_PARAMETER_DOCS.filter.description}`,
  schema: { type: 'string', minLength: 1, examples: ['stage[eq]:NEW'] },
});

/** OpenAPI description of the operations of API.md section 11: bulk writes by filter, merge, aliases. */
export class BulkOperationDocs {
  private readonly crud: CrudOperationDocs;

  constructor(private readonly def: CollectionDefinition) {
    this.crud = new CrudOperationDocs(def);
  }

  private many(verb: string, description: string, items = this.crud.record) {
    return ApiResponse({
      status: 200,
      description,
      schema: this.crud.envelope(`${verb}${this.def.pascalPlural}`, { type: 'array', items }),
    });
  }

  /** `alias`: the older route form (PUT, /restore/<collection>), same behaviour, its own operationId. */
  updateMany = (alias?: 'alias') =>
    applyDecorators(
      this.crud.operation(
        `updateMany${this.def.pascalPlural}${alias ? 'Put' : ''}`,
        `Update every ${this.def.singular} the filter matches (partial, atomic)`,
      ),
      bulkFilter,
      query('depth', 'fields'),
      ApiBody({ type: this.def.update }),
      this.many('update', 'The updated records, by id'),
      errors(400, 401, 413, 415, 429),
    );

  deleteMany = () =>
    applyDecorators(
      this.crud.operation(
        `deleteMany${this.def.pascalPlural}`,
        `Delete every ${this.def.singular} the filter matches (atomic; soft with soft_delete=true)`,
      ),
      bulkFilter,
      query('soft_delete', 'depth', 'fields'),
      this.many('delete', 'Hard delete: [{id}] by id; soft delete: the records', {
        anyOf: [
          this.crud.record,
          { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
        ],
      }),
      errors(400, 401, 429),
    );

  restoreMany = (alias?: 'alias') =>
    applyDecorators(
      this.crud.operation(
        `restoreMany${this.def.pascalPlural}${alias ? 'Alias' : ''}`,
        `Restore every soft-deleted ${this.def.singular} the filter matches`,
      ),
      bulkFilter,
      query('depth', 'fields'),
      this.many('restore', 'The restored records, by id'),
      errors(400, 401, 429),
    );

  merge = () =>
    applyDecorators(
      this.crud.operation(`merge${this.def.pascalPlural}`, `Merge 2 to 9 ${this.def.plural} into one`),
      query('depth', 'fields'),
      ApiBody({
        schema: {
          type: 'object',
          required: ['ids'],
          properties: {
            ids: {
              type: 'array',
              items: { type: 'string', format: 'uuid' },
              minItems: 2,
              maxItems: 9,
              description: 'Records to merge, distinct',
            },
            conflictPriorityIndex: {
              type: 'integer',
              minimum: 0,
              default: 0,
              description: 'Index in ids of the surviving record',
            },
            dryRun: {
              type: 'boolean',
              default: false,
              description: 'true: answer the survivor as it would be, write nothing',
            },
          },
        },
      }),
      ApiResponse({
        status: 200,
        description: 'The surviving record',
        schema: this.crud.envelope(`merge${this.def.pascal}`, this.crud.record),
      }),
      errors(400, 401, 404, 413, 415, 429),
    );

  groupBy = () => {
    const keys = [...aggregateKeys(new CollectionMeta(this.def)).keys()];
    const parameter = (name: string, description: string, schema: Record<string, unknown>) =>
      ApiQuery({ name, required: false, description, schema });
    return applyDecorators(
      this.crud.operation(
        `groupBy${this.def.pascalPlural}`,
        `Group ${this.def.plural} and aggregate (one SQL GROUP BY)`,
      ),
      parameter(
        'group_by',
        'JSON array of up to 3 dimensions: {"field":true}, {"field":{"sub":true}}, {"field":{"granularity":"MONTH"}} (DAY, WEEK, MONTH, ' +
          'QUARTER, YEAR, DAY_OF_THE_WEEK, MONTH_OF_THE_YEAR, QUARTER_OF_THE_YEAR). Omitted: one group over the whole filtered set.',
        { type: 'string', examples: ['[{"createdAt":{"granularity":"MONTH"}}]'] },
      ),
      parameter(
        'aggregate',
        `JSON array of aggregate keys (totalCount is always there). Offered here: ${keys.join(', ')}`,
        {
          type: 'string',
          examples: [JSON.stringify(keys.slice(0, 2))],
        },
      ),
      query('filter'),
      parameter(
        'order_by',
        'JSON array such as [{"totalCount":"DESC"}] or [{"<field>":"AscNullsLast"}]; default: dimension values ascending (select options in their order), the null group last',
        { type: 'string' },
      ),
      parameter('limit', 'Groups returned: default 50, at most 200', {
        type: 'integer',
        minimum: 1,
        maximum: 200,
        default: 50,
      }),
      parameter('timezone', 'IANA time zone of date granularities (default UTC)', {
        type: 'string',
        examples: ['Europe/Paris'],
      }),
      parameter('include_records_sample', 'true: each group carries `records`, its first 10 records by id (depth 0)', {
        type: 'boolean',
        default: false,
      }),
      ApiResponse({
        status: 200,
        description: 'One element per group',
        schema: {
          type: 'array',
          items: {
            type: 'object',
            required: ['groupByDimensionValues', 'totalCount'],
            properties: {
              groupByDimensionValues: { type: 'array', items: {} },
              totalCount: { type: 'integer' },
              records: { type: 'array', items: this.crud.record },
            },
            additionalProperties: { description: 'An aggregate: a number, a date-time (min and max of dates) or null' },
          },
        },
      }),
      errors(400, 401, 429),
    );
  };

  updateOneAlias = () =>
    applyDecorators(
      idParam,
      this.crud.operation(`updateOne${this.def.pascal}Put`, `Update one ${this.def.singular} (PUT, an alias of PATCH)`),
      query('depth'),
      ifMatch,
      ApiBody({ type: this.def.update }),
      ApiResponse({
        status: 200,
        description: 'The updated record',
        headers: etagHeader,
        schema: this.crud.envelope(`update${this.def.pascal}`, this.crud.record),
      }),
      errors(400, 401, 404, 412, 413, 415, 429),
    );

  restoreOneAlias = () =>
    applyDecorators(
      idParam,
      this.crud.operation(
        `restoreOne${this.def.pascal}Alias`,
        `Restore one soft-deleted ${this.def.singular} (an alias of PATCH /${this.def.plural}/{id}/restore)`,
      ),
      query('depth'),
      ApiResponse({
        status: 200,
        description: 'The record',
        headers: etagHeader,
        schema: this.crud.envelope(`restore${this.def.pascal}`, this.crud.record),
      }),
      errors(400, 401, 404, 429),
    );
}
