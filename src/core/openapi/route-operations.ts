import { getSchemaPath } from '@nestjs/swagger';
import type { Access } from '../model/access';
import type { CollectionDefinition } from '../model/collection-definition';
import { fill, documentPath } from '../routes/route-paths';
import { FILE_ROUTES } from '../routes/file-routes';
import { COLLECTION_ROUTES } from '../routes/route-table';
import { IMPORT_ROUTES } from '../routes/service-routes';
import { fileRouteParts, multipartUploadSchema } from './file-operations';
import { importOperation } from './import-operation';
import { CollectionMeta } from '../model/collection-meta';
import { CollectionRoute } from '../routes/route-types';
import { collectionBodies, collectionParameters, DocumentLimits, recordRef } from './route-parameters';
import { ROUTE_DOCS } from './route-docs';
import { ERROR_DESCRIPTIONS, errorRef, Schema } from './operation-parts';
import { PageInfoSchema } from './envelope.schemas';

export type { DocumentLimits };

const ETAG = {
  ETag: {
    description: 'Version of the record (changes with every change); send it back in If-Match',
    schema: { type: 'string' },
  },
};

const envelope = (key: string, value: Schema): Schema => ({
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', required: [key], properties: { [key]: value } } },
});

/** The answer of an export: NDJSON (one record per line) or CSV, as an attachment (API.md section 15). */
const EXPORT_CONTENT = (def: CollectionDefinition): Schema => ({
  'application/x-ndjson': {
    schema: { type: 'string', description: `One ${def.singular} per line, as JSON (depth 0)` },
  },
  'text/csv': {
    schema: {
      type: 'string',
      description:
        'RFC 4180 (CRLF), a header row; composite sub-fields as dotted columns (name.firstName), arrays and JSON as ' +
        'JSON text, null as an empty cell',
    },
  },
});

const EXPORT_HEADERS = {
  'Content-Disposition': {
    description: 'attachment; filename="<plural>.<format>"',
    schema: { type: 'string' },
  },
  'X-Changes-Token': {
    description:
      "The change feed's position of the export's snapshot: GET /changes?since=<this token> gives the changes since, " +
      'so that the export followed by them reproduces the live data',
    schema: { type: 'string' },
  },
};

/** The schema of a route's success answer. */
function answerSchema(route: CollectionRoute, def: CollectionDefinition): Schema {
  const record = recordRef(def);
  const key = route.answerKey ? fill(route.answerKey, def) : '';
  const byId = { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } };
  switch (route.answer) {
    case 'record':
    case 'deleted':
      return envelope(key, record);
    case 'records':
      return envelope(key, { type: 'array', items: record });
    case 'deletedMany':
      return envelope(key, { type: 'array', items: { anyOf: [record, byId] } });
    case 'page':
      return {
        type: 'object',
        required: ['data', 'pageInfo', 'totalCount'],
        properties: {
          data: { type: 'object', required: [key], properties: { [key]: { type: 'array', items: record } } },
          pageInfo: { $ref: getSchemaPath(PageInfoSchema) },
          totalCount: {
            type: 'integer',
            nullable: true,
            description:
              'Rows matching the filter, ignoring limit (null with Prefer: count=none; with count=estimated, ' +
              "exact up to COUNT_EXACT_LIMIT matches, else the planner's estimate, never below COUNT_EXACT_LIMIT + 1)",
          },
          totalCountEstimated: {
            type: 'boolean',
            description: 'Only with Prefer: count=estimated: whether totalCount is an estimate (false: it is exact)',
          },
        },
      };
    case 'duplicates': {
      const found = { type: 'array', items: record };
      const result = {
        type: 'object',
        required: ['totalCount', 'pageInfo', 'companyDuplicates'],
        properties: {
          totalCount: { type: 'integer' },
          pageInfo: { $ref: getSchemaPath(PageInfoSchema) },
          companyDuplicates: found,
          [`${def.singular}Duplicates`]: found,
        },
      };
      return { type: 'object', required: ['data'], properties: { data: { type: 'array', items: result } } };
    }
    case 'export':
      return { type: 'string' };
    case 'groups':
      return {
        type: 'array',
        items: {
          type: 'object',
          required: ['groupByDimensionValues', 'totalCount'],
          properties: {
            groupByDimensionValues: { type: 'array', items: {} },
            totalCount: { type: 'integer' },
            records: { type: 'array', items: record },
          },
          additionalProperties: { description: 'An aggregate: a number, a date-time (min and max of dates) or null' },
        },
      };
    case 'file':
    case 'link':
      return {}; // file-operations.ts
  }
}

/** The bodies a route takes: JSON, and for the create of a collection with files a multipart upload too. */
function requestContent(route: CollectionRoute, def: CollectionDefinition, body: Schema): Schema {
  const json = { 'application/json': { schema: body } };
  return route.name === 'createOne' && def.files
    ? { ...json, 'multipart/form-data': { schema: multipartUploadSchema(def) } }
    : json;
}

/** One operation of one collection, from its row of the route table. */
function operation(
  route: CollectionRoute,
  def: CollectionDefinition,
  limits: DocumentLimits,
  order: number,
  access?: Access,
): Schema {
  const words = ROUTE_DOCS[route.name];
  const parameters = collectionParameters(route, def, limits, access);
  const body = route.body ? collectionBodies(def, limits)[route.body] : undefined;
  const responses: Schema = {
    [route.status]: {
      description: words.answers,
      ...(route.headers?.includes('etag') ? { headers: ETAG } : {}),
      ...(route.answer === 'export' ? { headers: EXPORT_HEADERS } : {}),
      content:
        route.answer === 'export' ? EXPORT_CONTENT(def) : { 'application/json': { schema: answerSchema(route, def) } },
    },
  };
  for (const status of [...words.errors, 403, 414, 503])
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status],
      content: { 'application/json': { schema: errorRef } },
    };
  return {
    operationId: fill(words.operationId, def),
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: requestContent(route, def, body) } } : {}),
    responses,
    security: [{ bearer: [] }],
    summary: fill(words.summary, def),
    tags: [def.plural],
    ...(route.aliasOf ? { deprecated: true } : {}),
    'x-order': order,
  };
}

/** The import of a collection is listed right after its export, its mirror image. */
const IMPORT_ORDER = COLLECTION_ROUTES.findIndex((r) => r.name === 'exportRecords') + 0.5;

/**
 * The path items of every collection route (OpenAPI 3.0 dialect, as @nestjs/swagger writes the
 * rest of the document): one operation per route of the route table and collection, in the
 * table's order, with the limits of the configuration, then the file routes and the import of
 * the collection (`POST /<plural>/import`, a route of IMPORT_ROUTES). `x-order` ranks them within
 * their tag for Swagger UI (aliases last).
 */
export function collectionPaths(
  definitions: readonly CollectionDefinition[],
  limits: DocumentLimits,
  access?: Access,
): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  const metas = new Map(definitions.map((def) => [def.plural, new CollectionMeta(def)]));
  for (const def of definitions) {
    COLLECTION_ROUTES.forEach((route, order) => {
      // a key's document holds the operations whose actions its role grants
      if (access && !route.actions.every((a) => access.grant(def.plural)?.actions.has(a))) return;
      const path = documentPath(route, def);
      (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, def, limits, order, access);
    });
    // the key may import when it may create or update (the operations its grant allows)
    const imports = importOperation(def, (plural) => metas.get(plural), limits, IMPORT_ORDER, access);
    if (imports) paths[`/${fill(IMPORT_ROUTES.start.path, def)}`] = { post: imports };
    if (!def.files) continue;
    FILE_ROUTES.forEach((route, order) => {
      if (access && !route.actions.every((a) => access.grant(def.plural)?.actions.has(a))) return;
      const described = operation(route, def, limits, COLLECTION_ROUTES.length + order, access);
      const parts = fileRouteParts(route);
      const { [route.status]: _generic, ...errors } = described.responses as Schema;
      described.parameters = [...((described.parameters as Schema[]) ?? []), ...parts.parameters];
      described.responses = { ...parts.responses, ...errors };
      (paths[documentPath(route, def)] ??= {})[route.method.toLowerCase()] = described;
    });
  }
  return paths;
}
