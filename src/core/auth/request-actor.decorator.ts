import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { RequestActor } from '../model/record';

/** Property of the request object where the guard leaves the authenticated actor. */
export const ACTOR_PROPERTY = 'crmActor';

/** Injects the API key behind the current request (set by ApiKeyGuard). */
export const Actor = createParamDecorator((_: unknown, ctx: ExecutionContext): RequestActor => {
  return ctx.switchToHttp().getRequest()[ACTOR_PROPERTY];
});
