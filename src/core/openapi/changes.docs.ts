import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiQuery } from '@nestjs/swagger';
import { CHANGES_LIMIT_DEFAULT, CHANGES_LIMIT_MAX } from '../changes/changes-query';

/** The words of the change-feed routes in the OpenAPI document (API.md section 15). */

const text = { type: 'string' } as const;

export const sinceDoc =
  'A reconnecting client sends `Last-Event-ID` instead of `since` (neither: 400); a token older than the retention: 410.';

export const tokenSchema = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', required: ['token'], properties: { token: text } } },
};

export const CHANGE_SCHEMA = {
  type: 'object',
  required: ['id', 'eventName', 'collection', 'recordId', 'occurredAt', 'apiKeyId', 'record'],
  properties: {
    id: { type: 'string', description: 'The token of this change' },
    eventName: { type: 'string', example: 'person.updated' },
    collection: { type: 'string', example: 'people' },
    recordId: { type: 'string', format: 'uuid' },
    occurredAt: { type: 'string', format: 'date-time' },
    apiKeyId: { type: 'string', format: 'uuid', nullable: true },
    record: {
      type: 'object',
      nullable: true,
      description: 'The record after the change at depth 0 (the soft-deleted record for deleted); null for destroyed',
    },
    updatedFields: { type: 'array', items: text, description: 'Only on updated' },
  },
};

/** `since`, `limit` (pages only) and `collections`. */
export function changesQueryDocs(pages: boolean): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'since',
      required: pages,
      description: pages
        ? 'A token: GET /changes/head, an export’s X-Changes-Token, or the endCursor of the previous page'
        : 'A token, as for GET /changes (or the Last-Event-ID header)',
      schema: text,
    }),
    ...(pages
      ? [
          ApiQuery({
            name: 'limit',
            required: false,
            description: `Changes per page: default ${CHANGES_LIMIT_DEFAULT}, at most ${CHANGES_LIMIT_MAX}`,
            schema: { type: 'integer', minimum: 1, maximum: CHANGES_LIMIT_MAX, default: CHANGES_LIMIT_DEFAULT },
          }),
        ]
      : [ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The id of the last event received' })]),
    ApiQuery({
      name: 'collections',
      required: false,
      description: 'Only these collections (plural names, comma separated); every readable one by default',
      schema: text,
    }),
  );
}
