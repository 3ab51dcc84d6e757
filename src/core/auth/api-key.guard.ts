import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { UnauthenticatedException } from '../errors/error-names';
import { RateLimiter } from './rate-limiter';
import { ApiKeyVerifier } from './api-key.verifier';
import { IS_PUBLIC } from './public.decorator';
import { ACTOR_PROPERTY } from './request-actor.decorator';

const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;

/**
 * The global guard: every route needs `Authorization: Bearer <api key>` unless marked @Public().
 * Tokens are read from that header only, never from the query string or a cookie. A request with
 * a valid key then counts against that key's rate limits (429 over them).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly logger = new Logger('Auth');

  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: ApiKeyVerifier,
    private readonly rateLimiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest();
    const header: unknown = request.headers?.authorization;
    const fail = (reason: string): never => {
      // Logged without the token: method, path and reason only.
      const requestId = request.requestId ?? request.raw?.requestId;
      this.logger.warn(`authentication failed: ${reason} (${request.method} ${String(request.url).split('?')[0]}, request ${requestId})`);
      throw new UnauthenticatedException(reason);
    };
    if (typeof header !== 'string' || header === '') {
      fail('Missing bearer token: send the header Authorization: Bearer <api key>');
    }
    const match = BEARER.exec(header as string);
    if (!match) fail('Malformed Authorization header: expected Bearer <api key>');
    const result = await this.verifier.verify(match![1]);
    if (!result.ok) fail(result.reason);
    const actor = (result as { actor: { apiKeyId: string } }).actor;
    request[ACTOR_PROPERTY] = actor;
    // Fastify wraps Node's request: the request logger reads the key from the raw one
    if (request.raw) request.raw[ACTOR_PROPERTY] = actor;
    await this.rateLimiter.consume(actor.apiKeyId, context.switchToHttp().getResponse());
    return true;
  }
}
