import {
  CallHandler,
  DynamicModule,
  ExecutionContext,
  Global,
  Injectable,
  Module,
  NestInterceptor,
  SetMetadata,
  createParamDecorator,
} from '@nestjs/common';
import { APP_INTERCEPTOR, Reflector } from '@nestjs/core';
import { from, mergeMap, Observable } from 'rxjs';
import { ACTOR_PROPERTY } from '../auth/request-actor.decorator';
import { ROUTE_ACTIONS, RouteActionsMeta } from '../auth/route-actions.decorator';
import { WritePositions } from '../cache/write-positions';
import { AppConfig } from '../config/app-config';
import { ReadTarget } from '../database/db';
import { Replicas } from '../database/replicas';
import type { Access } from '../model/access';
import { RequestActor } from '../model/record';

const READS_FROM_REPLICA = 'crm:readsFromReplica';
/** Property of the request where the interceptor leaves the read target it chose. */
const READS_PROPERTY = 'crmReads';

/** What a read route hands its service: the key's access, and where to read (undefined: the primary). */
export interface ReadRequest {
  access: Access;
  reads?: ReadTarget;
}

/**
 * Injects a read route's ReadRequest: the access of the key (set by the guard) and the replica the
 * interceptor chose, if any (never without DATABASE_REPLICA_URLS). A parameter, not an
 * AsyncLocalStorage context: that would cost every request of the process its async hooks.
 */
export const Reading = createParamDecorator((_: unknown, ctx: ExecutionContext): ReadRequest => {
  const request = ctx.switchToHttp().getRequest();
  return { access: (request[ACTOR_PROPERTY] as RequestActor).access, reads: request[READS_PROPERTY] };
});

/** A read-only route outside the route table whose reads may be answered by a replica. */
export const ReadsFromReplica = () => SetMetadata(READS_FROM_REPLICA, true);

/**
 * Sends the reads of read routes to a replica (API.md section 19), with read-your-writes per key:
 * - a route whose only action is `read` (list, get one, counts, group by, duplicates, export) or
 *   marked `@ReadsFromReplica()` (search) gets the replica Replicas.target gives for the key's
 *   last write position (none: the primary), which its handler hands the read service
 *   (`@Reading()`);
 * - any other request of a key, but a GET, notes the primary's WAL position once its
 *   handler has finished (every COMMIT done), before the answer leaves.
 * Registered only with DATABASE_REPLICA_URLS: without replicas no request pays anything.
 */
@Injectable()
class ReplicaReadsInterceptor implements NestInterceptor {
  private readonly readRoutes = new Map<object, boolean>();

  constructor(
    private readonly reflector: Reflector,
    private readonly replicas: Replicas,
    private readonly positions: WritePositions,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest();
    const actor: RequestActor | undefined = request[ACTOR_PROPERTY];
    if (!actor) return next.handle();
    if (!this.isReadRoute(context)) {
      if (request.method === 'GET') return next.handle();
      return next
        .handle()
        .pipe(mergeMap((answer) => from(this.positions.noteWrite(actor.apiKeyId).then(() => answer))));
    }
    return from(this.positions.required(actor.apiKeyId)).pipe(
      mergeMap((position) => {
        // undefined: the primary (the services' default)
        request[READS_PROPERTY] = this.replicas.target(position);
        return next.handle();
      }),
    );
  }

  private isReadRoute(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let read = this.readRoutes.get(handler);
    if (read === undefined) {
      const meta = this.reflector.get<RouteActionsMeta | undefined>(ROUTE_ACTIONS, handler);
      read =
        this.reflector.get<boolean | undefined>(READS_FROM_REPLICA, handler) === true ||
        (!!meta && meta.actions.length > 0 && meta.actions.every((action) => action === 'read'));
      this.readRoutes.set(handler, read);
    }
    return read;
  }
}

/** Read-your-writes positions for every module (imports note theirs), and the interceptor when replicas are configured. */
@Global()
@Module({})
export class ReplicaReadsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const routed = config.database.replicaUrls.length > 0;
    return {
      module: ReplicaReadsModule,
      providers: [WritePositions, ...(routed ? [{ provide: APP_INTERCEPTOR, useClass: ReplicaReadsInterceptor }] : [])],
      exports: [WritePositions],
    };
  }
}
