import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ACTOR_PROPERTY } from '../auth/request-actor.decorator';
import type { Access } from '../model/access';
import type { RequestActor } from '../model/record';
import type { RawQuery } from './request-params';
import { isMultipart, MultipartRequest } from './file-uploads';

/**
 * The raw inputs of a route handed to its pipes with the key's access (the pipes refuse what the
 * key may not read or write, API.md section 14): the query string, the body, and for creates the
 * body with its `upsert` parameter (they go together: the items of an upsert are partial records).
 */
export interface QueryInput {
  query: RawQuery;
  access: Access;
}

export interface BodyInput {
  body: unknown;
  access: Access;
}

export interface CreateBodyInput extends BodyInput {
  upsert: unknown;
  /** A multipart/form-data create (a file upload, API.md section 16): its body is left unread. */
  multipart?: MultipartRequest;
}

type Request = { query?: RawQuery; body?: unknown; [ACTOR_PROPERTY]?: RequestActor };

const requestOf = (ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>();

export const RouteQuery = createParamDecorator((_: unknown, ctx: ExecutionContext): QueryInput => {
  const request = requestOf(ctx);
  return { query: request.query ?? {}, access: request[ACTOR_PROPERTY]!.access };
});

export const RouteBody = createParamDecorator((_: unknown, ctx: ExecutionContext): BodyInput => {
  const request = requestOf(ctx);
  return { body: request.body, access: request[ACTOR_PROPERTY]!.access };
});

/** Fastify wraps Node's request and response (`raw`); Express extends them. */
const rawOf = <T>(wrapped: unknown): T => ((wrapped as { raw?: T }).raw ?? wrapped) as T;

export const CreateBody = createParamDecorator((_: unknown, ctx: ExecutionContext): CreateBodyInput => {
  const request = requestOf(ctx);
  const input: CreateBodyInput = {
    body: request.body,
    upsert: request.query?.upsert,
    access: request[ACTOR_PROPERTY]!.access,
  };
  const headers = (request as { headers?: Record<string, unknown> }).headers;
  if (isMultipart(headers?.['content-type'])) {
    input.multipart = { request: rawOf(request), response: rawOf(ctx.switchToHttp().getResponse()) };
  }
  return input;
});
