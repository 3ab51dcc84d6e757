import { applyDecorators } from '@nestjs/common';
import { ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorEnvelopeSchema } from './envelope.schemas';

/** Pieces shared by the OpenAPI description of every operation: the error responses (403, 414 and 503 on every one). */

export type Schema = Record<string, unknown>;

export const errorRef = { $ref: getSchemaPath(ErrorEnvelopeSchema) };

/** What each error status means, as every operation documents it. */
export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: validation, query parameter or id errors (one message per problem)',
  401: 'Missing, malformed, unknown, expired or revoked API key',
  403: "The key's role does not allow it (an action on a collection, a relation path through a closed collection)",
  404: 'Record or route not found',
  412: 'If-Match does not match the current ETag: the record changed since it was read',
  422: 'Idempotency-Key already used for a different request',
  413: 'Body larger than the limit',
  415: 'Body that is not JSON',
  429: 'Rate limit exceeded (see Retry-After)',
  414: 'URL longer than the limit',
  503: 'Database unavailable; retry later (see Retry-After)',
};

export function errors(...statuses: number[]): MethodDecorator {
  return applyDecorators(
    ...[...statuses, 403, 414, 503].map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status], schema: errorRef }),
    ),
  );
}
