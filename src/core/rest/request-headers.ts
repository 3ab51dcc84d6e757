import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { parseIdempotencyKey } from '../idempotency/idempotency.store';
import { countPreference, parseIfMatch } from './preconditions';

function header(ctx: ExecutionContext, name: string): unknown {
  return ctx.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers[name];
}

/** The parsed `If-Match` header (`*` or entity tags), undefined when absent; 400 when malformed. */
export const IfMatchHeader = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  parseIfMatch(header(ctx, 'if-match')),
);

/** The `count` preference of the `Prefer` header (exact, estimated, none), undefined when not given. */
export const CountPreference = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  countPreference(header(ctx, 'prefer')),
);

/** The `Idempotency-Key` header, undefined when absent; 400 when malformed. */
export const IdempotencyKey = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  parseIdempotencyKey(header(ctx, 'idempotency-key')),
);
