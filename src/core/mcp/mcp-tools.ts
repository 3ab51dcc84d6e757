import { FILTER_OPERATORS } from '../query/parse-filter';

/** The tools of the MCP endpoint (API.md section 13): names, short descriptions, input schemas. */

type Schema = Record<string, unknown>;
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Schema & { type: 'object' };
}

/** The limits of the configuration the tools state (the same as the routes they run). */
export interface ToolLimits {
  batchMax: number;
  bulkMax: number;
  pageSizeDefault: number;
  pageSizeMax: number;
}

const FILTER =
  'Filter, REST grammar: field[op]:value joined by commas (AND), or(...), and(...), not(...). Ops: ' +
  `${FILTER_OPERATORS.filter((op) => op !== 'is').join(' ')} is(NULL|NOT_NULL). Sub-fields and relations by dot. Example: ` +
  'and(stage[eq]:NEW,company.employees[gt]:100)';
const ORDER_BY =
  'Sort keys field[AscNullsFirst|AscNullsLast|DescNullsFirst|DescNullsLast], comma separated. Example: createdAt[DescNullsLast]';
const DEPTH = 'Relations to include: 0 none, 1 (default) related records, 2 their relations too';

/** The tool definitions, with `collection` restricted to the collections served. */
export function toolDefinitions(collections: string[], searchable: string[], limits: ToolLimits): ToolDefinition[] {
  const collection = {
    type: 'string',
    enum: collections,
    description: 'Collection (plural name), see list_collections',
  };
  const id = { type: 'string', format: 'uuid', description: 'Record id' };
  const fields = { type: 'array', items: { type: 'string' }, description: 'Top-level fields to return (id always)' };
  const depth = { type: 'integer', enum: [0, 1, 2], description: DEPTH };
  const filter = { type: 'string', description: FILTER };
  const object = (properties: Record<string, Schema>, required: string[] = []) => ({
    type: 'object' as const,
    properties,
    required,
    additionalProperties: false,
  });
  return [
    {
      name: 'list_collections',
      description: 'The collections of this CRM: names and a one-line description each.',
      inputSchema: object({}),
    },
    {
      name: 'describe_collection',
      description:
        'The fields of one collection (type, select options, composite sub-fields, required on create) and its relations.',
      inputSchema: object({ collection }, ['collection']),
    },
    {
      name: 'find_records',
      description: `List records: filter, sort, keyset pages (pass pageInfo.endCursor as cursor). ${FILTER}`,
      inputSchema: object(
        {
          collection,
          filter,
          order_by: { type: 'string', description: ORDER_BY },
          limit: {
            type: 'integer',
            minimum: 0,
            maximum: limits.pageSizeMax,
            description: `Page size, default ${limits.pageSizeDefault}`,
          },
          cursor: { type: 'string', description: 'pageInfo.endCursor of the previous page' },
          fields,
          depth,
        },
        ['collection'],
      ),
    },
    {
      name: 'get_record',
      description: 'One record by id.',
      inputSchema: object({ collection, id, depth, fields }, ['collection', 'id']),
    },
    {
      name: 'create_records',
      description: `Create 1 to ${limits.batchMax} records atomically (fields as describe_collection lists them). upsert: match by id and unique fields, update a match, create the rest.`,
      inputSchema: object(
        {
          collection,
          records: {
            type: 'array',
            minItems: 1,
            maxItems: limits.batchMax,
            items: { type: 'object' },
            description: 'Records, e.g. [{"name":{"firstName":"Ada","lastName":"Lovelace"}}]',
          },
          upsert: { type: 'boolean', default: false },
          idempotencyKey: {
            type: 'string',
            description: 'Makes a retry safe: the same key replays the first answer for 24 h',
          },
        },
        ['collection', 'records'],
      ),
    },
    {
      name: 'update_records',
      description: `Update one record (id) or every record a filter matches (filter, at most ${limits.bulkMax}), with the fields in data (partial). ${FILTER}`,
      inputSchema: object({ collection, data: { type: 'object', description: 'Fields to change' }, id, filter }, [
        'collection',
        'data',
      ]),
    },
    {
      name: 'delete_records',
      description: `Delete one record (id) or every record a filter matches (filter, at most ${limits.bulkMax}); soft: true keeps them restorable.`,
      inputSchema: object({ collection, id, filter, soft: { type: 'boolean', default: false } }, ['collection']),
    },
    {
      name: 'search_records',
      description: 'Search across collections: every word as a prefix, accents and case ignored, best first.',
      inputSchema: object(
        {
          query: { type: 'string', minLength: 1, description: 'Words, e.g. "ada lov"' },
          objects: { type: 'array', items: { type: 'string', enum: searchable } },
          limit: { type: 'integer', minimum: 1, maximum: 100 },
          cursor: { type: 'string' },
        },
        ['query'],
      ),
    },
    {
      name: 'group_by',
      description:
        'Count and aggregate records by up to 3 dimensions in one query. Example: group_by [{"stage":true}], aggregate ["sumAmountAmountMicros"]; ' +
        'dates take {"closeDate":{"granularity":"MONTH"}}. Aggregate keys: countEmpty|countNotEmpty|countUniqueValues|percentageEmpty|' +
        'percentageNotEmpty|countTrue|countFalse|min|max|avg|sum + Field [+ Sub], first letters upper-cased.',
      inputSchema: object(
        {
          collection,
          group_by: { type: 'array', maxItems: 3, items: { type: 'object' } },
          aggregate: { type: 'array', items: { type: 'string' } },
          filter,
          order_by: { type: 'array', items: { type: 'object' }, description: 'e.g. [{"totalCount":"DESC"}]' },
          limit: { type: 'integer', minimum: 1, maximum: 200 },
          timezone: { type: 'string', description: 'IANA zone of date granularities, default UTC' },
        },
        ['collection'],
      ),
    },
  ];
}
