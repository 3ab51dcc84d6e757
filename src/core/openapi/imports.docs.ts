import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { IMPORT_ROUTES } from '../routes/service-routes';
import { errors } from './operation-parts';

/** The words of the import job routes in the OpenAPI document (API.md section 17). */

const count = { type: 'integer', minimum: 0 } as const;
const when = { type: 'string', format: 'date-time', nullable: true } as const;

export const IMPORT_JOB_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'collection',
    'operation',
    'atomic',
    'dryRun',
    'state',
    'rows',
    'bytes',
    'createdAt',
    'startedAt',
    'finishedAt',
    'apiKeyId',
  ],
  properties: {
    id: { type: 'string', format: 'uuid' },
    collection: { type: 'string', example: 'people' },
    operation: { type: 'string', enum: ['create', 'upsert', 'update'] },
    atomic: { type: 'boolean' },
    dryRun: { type: 'boolean' },
    state: { type: 'string', enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] },
    rows: {
      type: 'object',
      required: ['read', 'created', 'updated', 'unchanged', 'failed', 'unprocessed'],
      properties: { read: count, created: count, updated: count, unchanged: count, failed: count, unprocessed: count },
      description: 'At the end, read = created + updated + unchanged + failed + unprocessed',
    },
    bytes: count,
    createdAt: { type: 'string', format: 'date-time' },
    startedAt: when,
    finishedAt: when,
    apiKeyId: { type: 'string', format: 'uuid', nullable: true },
    message: { type: 'string', description: 'Why the job failed' },
  },
};

/** The job is one schema of the document's components, `ImportJob` (registered by setupOpenApi). */
export const IMPORT_JOB_SCHEMA_NAME = 'ImportJob';
const jobRef = { $ref: `#/components/schemas/${IMPORT_JOB_SCHEMA_NAME}` };

export const importAnswer = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', required: ['import'], properties: { import: jobRef } } },
};

const idParam = ApiParam({ name: 'id', schema: { type: 'string', format: 'uuid' } });

const ROUTES = {
  list: applyDecorators(
    ApiOperation({
      operationId: IMPORT_ROUTES.list.name,
      summary: 'Import jobs, newest first (a key sees its own; an admin key every job)',
    }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 60 } }),
    ApiQuery({
      name: 'starting_after',
      required: false,
      schema: { type: 'string' },
      description: 'pageInfo.endCursor of the page before',
    }),
    ApiResponse({
      status: 200,
      description: 'A page of jobs',
      schema: {
        type: 'object',
        required: ['data', 'pageInfo'],
        properties: {
          data: {
            type: 'object',
            required: ['imports'],
            properties: { imports: { type: 'array', items: jobRef } },
          },
          pageInfo: {
            type: 'object',
            required: ['hasNextPage', 'startCursor', 'endCursor'],
            properties: {
              hasNextPage: { type: 'boolean' },
              startCursor: { type: 'string', nullable: true },
              endCursor: { type: 'string', nullable: true },
            },
          },
        },
      },
    }),
    errors(400, 401, 429),
  ),
  one: applyDecorators(
    ApiOperation({ operationId: IMPORT_ROUTES.one.name, summary: 'An import job: its state and counters' }),
    idParam,
    ApiResponse({ status: 200, description: 'The job', schema: importAnswer }),
    errors(400, 401, 404, 429),
  ),
  cancel: applyDecorators(
    ApiOperation({
      operationId: IMPORT_ROUTES.cancel.name,
      summary: 'Cancels a job: cancelled within 2 s (atomic: nothing written; else the rows written so far stay)',
    }),
    idParam,
    ApiResponse({ status: 200, description: 'The job', schema: importAnswer }),
    errors(400, 401, 404, 409, 429),
  ),
  errors: applyDecorators(
    ApiOperation({
      operationId: IMPORT_ROUTES.errors.name,
      summary: 'Every rejected row of a job in line order: line, column, code, message',
    }),
    idParam,
    ApiQuery({ name: 'format', required: false, schema: { type: 'string', enum: ['csv', 'ndjson'], default: 'csv' } }),
    ApiResponse({
      status: 200,
      description:
        'The error report (codes INVALID_VALUE, REQUIRED, UNIQUE_CONFLICT, DUPLICATE_IN_FILE, NOT_FOUND, RELATION_NOT_FOUND, FORBIDDEN_ROW, MALFORMED_ROW)',
      content: { 'text/csv': { schema: { type: 'string' } }, 'application/x-ndjson': { schema: { type: 'string' } } },
    }),
    errors(400, 401, 404, 429),
  ),
  stream: applyDecorators(
    ApiOperation({
      operationId: IMPORT_ROUTES.stream.name,
      summary:
        'Progress of a job (Server-Sent Events): `event: progress` with the job at least every second, `event: done` at the end',
    }),
    idParam,
    ApiResponse({
      status: 200,
      description: 'The events',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    }),
    errors(400, 401, 404, 429),
  ),
};

/** The OpenAPI words of one import job route. */
export function importDocs(route: keyof typeof ROUTES): MethodDecorator {
  return ROUTES[route];
}
