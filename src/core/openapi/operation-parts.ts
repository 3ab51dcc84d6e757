import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiParam, ApiQuery, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorEnvelopeSchema } from './envelope.schemas';
import { QUERY_PARAMETER_DOCS } from './query-parameter.docs';

/** Pieces shared by the OpenAPI description of every operation: error responses, headers, parameters. */

export type Schema = Record<string, unknown>;

export const errorRef = { $ref: getSchemaPath(ErrorEnvelopeSchema) };

export function errors(...statuses: number[]): MethodDecorator {
  const descriptions: Record<number, string> = {
    400: 'Bad request: validation, query parameter or id errors (one message per problem)',
    401: 'Missing, malformed, unknown, expired or revoked API key',
    404: 'Record or route not found',
    412: 'If-Match does not match the current ETag: the record changed since it was read',
    422: 'Idempotency-Key already used for a different request',
    413: 'Body larger than the limit',
    415: 'Body that is not JSON',
    429: 'Rate limit exceeded (see Retry-After)',
    414: 'URL longer than the limit',
    503: 'Database unavailable; retry later (see Retry-After)',
  };
  return applyDecorators(
    ...[...statuses, 414, 503].map((status) =>
      ApiResponse({ status, description: descriptions[status], schema: errorRef }),
    ),
  );
}

export const etagHeader = {
  ETag: {
    description: 'Version of the record (changes with every change); send it back in If-Match',
    schema: { type: 'string' },
  },
};

export const idempotencyKey = ApiHeader({
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes the create safe to retry: for 24 hours, a request with the same key (per API key) and the same route, query and ' +
    'body gets the first answer again (with Idempotent-Replayed: true) and writes nothing; the same key with a different ' +
    'request is refused with 422. A failed request stores nothing and can be retried with the same key.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
});

export const ifMatch = ApiHeader({
  name: 'If-Match',
  required: false,
  description:
    'Optimistic concurrency: the ETag read with the record (or *). When the record has changed since, 412 and nothing is written.',
  schema: { type: 'string' },
});

export const idParam = ApiParam({ name: 'id', description: 'Record id', schema: { type: 'string', format: 'uuid' } });

export function query(...names: (keyof typeof QUERY_PARAMETER_DOCS)[]): MethodDecorator {
  return applyDecorators(...names.map((name) => ApiQuery({ name, required: false, ...QUERY_PARAMETER_DOCS[name] })));
}
