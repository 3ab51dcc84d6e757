import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { requireAction } from '../access/access-checks';
import { UnauthenticatedException } from '../errors/error-names';
import { RateLimiter } from './rate-limiter';
import { ApiKeyVerifier } from './api-key.verifier';
import { IS_PUBLIC } from './public.decorator';
import { ACTOR_PROPERTY } from './request-actor.decorator';
import { ROUTE_ACTIONS, RouteActionsMeta } from './route-actions.decorator';

const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;

/** How a route is public: not (false), open to all, or open with an optional key (see Public). */
type PublicMode = false | 'open' | 'keyed';

/**
 * The global guard: every route needs `Authorization: Bearer <api key>` unless marked @Public().
 * Tokens are read from that header only, never from the query string or a cookie. A request with
 * a valid key then counts against that key's rate limits (429 over them), and a route of the route
 * table needs the actions it performs granted by the key's role (403 before anything runs,
 * API.md section 14).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly logger = new Logger('Auth');
  /** Whether a route is @Public(), by controller class and handler: looked up once, not on every request. */
  private readonly publicRoutes = new Map<object, Map<object, PublicMode>>();
  /** The actions of each handler of the route table, read once. */
  private readonly routeActions = new Map<object, RouteActionsMeta | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: ApiKeyVerifier,
    private readonly rateLimiter: RateLimiter,
  ) {}

  private publicMode(context: ExecutionContext): PublicMode {
    const controller = context.getClass();
    const handler = context.getHandler();
    let handlers = this.publicRoutes.get(controller);
    if (!handlers) this.publicRoutes.set(controller, (handlers = new Map()));
    let mode = handlers.get(handler);
    if (mode === undefined) {
      mode = this.reflector.getAllAndOverride<PublicMode>(IS_PUBLIC, [handler, controller]) ?? false;
      handlers.set(handler, mode);
    }
    return mode;
  }

  private actionsOf(context: ExecutionContext): RouteActionsMeta | null {
    const handler = context.getHandler();
    let actions = this.routeActions.get(handler);
    if (actions === undefined) {
      actions = this.reflector.get<RouteActionsMeta>(ROUTE_ACTIONS, handler) ?? null;
      this.routeActions.set(handler, actions);
    }
    return actions;
  }

  /** Logged without the token: method, path and reason only. */
  private fail(
    request: { method: string; url: string; requestId?: string; raw?: { requestId?: string } },
    reason: string,
  ): never {
    const requestId = request.requestId ?? request.raw?.requestId;
    this.logger.warn(
      `authentication failed: ${reason} (${request.method} ${String(request.url).split('?')[0]}, request ${requestId})`,
    );
    throw new UnauthenticatedException(reason);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest();
    const header: unknown = request.headers?.authorization;
    const mode = this.publicMode(context);
    if (mode === 'open' || (mode === 'keyed' && (header === undefined || header === ''))) return true;
    if (typeof header !== 'string' || header === '') {
      this.fail(request, 'Missing bearer token: send the header Authorization: Bearer <api key>');
    }
    const match = BEARER.exec(header);
    if (!match) this.fail(request, 'Malformed Authorization header: expected Bearer <api key>');
    const result = await this.verifier.verify(match[1]);
    if (!result.ok) this.fail(request, result.reason);
    const actor = result.actor;
    request[ACTOR_PROPERTY] = actor;
    // Fastify wraps Node's request: the request logger reads the key from the raw one
    if (request.raw) request.raw[ACTOR_PROPERTY] = actor;
    await this.rateLimiter.consume(actor.apiKeyId, http.getResponse());
    const route = this.actionsOf(context);
    if (route && !actor.access.admin)
      for (const action of route.actions) requireAction(actor.access, route.plural, action);
    return true;
  }
}
