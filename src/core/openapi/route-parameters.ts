import { getSchemaPath } from '@nestjs/swagger';
import type { Access } from '../model/access';
import type { CollectionDefinition } from '../model/collection-definition';
import { CollectionMeta } from '../model/collection-meta';
import { aggregateKeys } from '../query/group-by-query';
import { BodyShape, CollectionRoute, QueryParam } from '../routes/route-types';
import { Schema } from './operation-parts';
import { QUERY_PARAMETER_DOCS } from './query-parameter.docs';

/** The limits of the configuration that the document states (so that it never disagrees with the service). */
export interface DocumentLimits {
  batchMax: number;
  bulkMax: number;
  pageSizeDefault: number;
  pageSizeMax: number;
  /** IMPORT_MAX_BYTES: the largest import body. */
  importMaxBytes: number;
}

export const recordRef = (def: CollectionDefinition) => ({ $ref: getSchemaPath(def.response) });

const HEADERS: Record<'prefer' | 'idempotencyKey' | 'ifMatch', Schema> = {
  prefer: {
    name: 'Prefer',
    in: 'header',
    description:
      'count=exact (default): totalCount is exact (cached per filter until the collection changes); ' +
      'count=estimated: exact up to COUNT_EXACT_LIMIT (default 10,000) matches, above it the ' +
      "planner's estimate (never below the limit + 1), flagged by totalCountEstimated; count=none: " +
      'totalCount is null. Other values are ignored; the applied preference is echoed in Preference-Applied.',
    required: false,
    schema: { type: 'string', examples: ['count=none'] },
  },
  idempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Makes the create safe to retry: for 24 hours, a request with the same key (per API key) and the same route, query and ' +
      'body gets the first answer again (with Idempotent-Replayed: true) and writes nothing; the same key with a different ' +
      'request is refused with 422. A failed request stores nothing and can be retried with the same key.',
    required: false,
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  ifMatch: {
    name: 'If-Match',
    in: 'header',
    description:
      'Optimistic concurrency: the ETag read with the record (or *). When the record has changed since, 412 and nothing is written.',
    required: false,
    schema: { type: 'string' },
  },
};

const ID = {
  name: 'id',
  required: true,
  in: 'path',
  description: 'Record id',
  schema: { type: 'string', format: 'uuid' },
};

const query = (name: string, description: string, schema: Schema, required = false) => ({
  name,
  required,
  in: 'query',
  description,
  schema,
});

/** The group-by parameters, whose aggregate keys are the collection's own. */
function groupByParameter(name: QueryParam, def: CollectionDefinition, access?: Access): Schema | undefined {
  switch (name) {
    case 'group_by':
      return query(
        name,
        'JSON array of up to 3 dimensions: {"field":true}, {"field":{"sub":true}}, {"field":{"granularity":"MONTH"}} (DAY, WEEK, MONTH, ' +
          'QUARTER, YEAR, DAY_OF_THE_WEEK, MONTH_OF_THE_YEAR, QUARTER_OF_THE_YEAR). Omitted: one group over the whole filtered set.',
        { type: 'string', examples: ['[{"createdAt":{"granularity":"MONTH"}}]'] },
      );
    case 'aggregate': {
      const hidden = access?.grant(def.plural)?.hidden;
      const offered = [...aggregateKeys(new CollectionMeta(def))];
      const keys = offered.filter(([, a]) => !hidden?.has(a.ref.path.split('.')[0])).map(([key]) => key);
      return query(
        name,
        `JSON array of aggregate keys (totalCount is always there). Offered here: ${keys.join(', ')}`,
        {
          type: 'string',
          examples: [JSON.stringify(keys.slice(0, 2))],
        },
      );
    }
    case 'order_by':
      return query(
        name,
        'JSON array such as [{"totalCount":"DESC"}] or [{"<field>":"AscNullsLast"}]; default: dimension values ascending (select options in their order), the null group last',
        { type: 'string' },
      );
    case 'limit':
      return query(name, 'Groups returned: default 50, at most 200', {
        type: 'integer',
        minimum: 1,
        maximum: 200,
        default: 50,
      });
    case 'timezone':
      return query(name, 'IANA time zone of date granularities (default UTC)', {
        type: 'string',
        examples: ['Europe/Paris'],
      });
    case 'include_records_sample':
      return query(
        name,
        'true: each group carries `records`, its first 10 records (depth 0) by id, or in the order of order_by_for_records',
        { type: 'boolean', default: false },
      );
    case 'order_by_for_records':
      return query(
        name,
        "Order of each group's `records` sample, in the grammar of a list's order_by (fields, composite sub-fields, many-to-one " +
          "relation paths; id last, in the last key's direction); default: by id",
        { type: 'string', examples: ['name.lastName[AscNullsFirst],createdAt[DescNullsLast]'] },
      );
    default:
      return undefined;
  }
}

/** One query parameter of a route, its limits from the configuration. */
function queryParameter(
  route: CollectionRoute,
  name: QueryParam,
  def: CollectionDefinition,
  limits: DocumentLimits,
  access?: Access,
) {
  if (route.name === 'groupBy') {
    const own = groupByParameter(name, def, access);
    if (own) return own;
  }
  if (name === 'filter' && route.filterRequired)
    return query(
      'filter',
      `Which records (grammar of list filters); mandatory: a write over a whole collection must be asked for explicitly ` +
        `(e.g. id[is]:NOT_NULL). At most BULK_MAX (here ${limits.bulkMax}) records per request. ${QUERY_PARAMETER_DOCS.filter.description}`,
      { type: 'string', minLength: 1, examples: ['stage[eq]:NEW'] },
      true,
    );
  if (name === 'limit')
    return query(
      'limit',
      `Page size: default ${limits.pageSizeDefault}, at most ${limits.pageSizeMax} (larger values are capped).`,
      { type: 'integer', minimum: 0, default: limits.pageSizeDefault, examples: [20] },
    );
  const docs = QUERY_PARAMETER_DOCS[name as keyof typeof QUERY_PARAMETER_DOCS];
  return query(name, docs.description, docs.schema, name === 'format');
}

/** The parameters of a route: the record id, its query parameters, the headers it reads. */
export function collectionParameters(
  route: CollectionRoute,
  def: CollectionDefinition,
  limits: DocumentLimits,
  access?: Access,
) {
  const headers = (['prefer', 'idempotencyKey', 'ifMatch'] as const).filter((h) => route.headers?.includes(h));
  return [
    ...(route.path.includes('{id}') ? [ID] : []),
    ...route.params.map((p) => queryParameter(route, p, def, limits, access)),
    ...headers.map((h) => HEADERS[h]),
  ];
}

/** The request bodies of a collection's routes, by shape. */
export function collectionBodies(def: CollectionDefinition, limits: DocumentLimits): Record<BodyShape, Schema> {
  const uuid = { type: 'string', format: 'uuid' };
  return {
    create: { $ref: getSchemaPath(def.create) },
    createMany: { type: 'array', items: { $ref: getSchemaPath(def.create) }, minItems: 1, maxItems: limits.batchMax },
    update: { $ref: getSchemaPath(def.update) },
    duplicates: {
      type: 'object',
      description: 'Exactly one of data (partial records) or ids',
      properties: {
        data: { type: 'array', items: { $ref: getSchemaPath(def.update) }, maxItems: limits.batchMax },
        ids: { type: 'array', items: uuid, maxItems: limits.batchMax },
      },
    },
    merge: {
      type: 'object',
      required: ['ids'],
      properties: {
        ids: { type: 'array', items: uuid, minItems: 2, maxItems: 9, description: 'Records to merge, distinct' },
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
  };
}
