import { HttpException, HttpStatus, UnsupportedMediaTypeException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';

type Req = { url: string; headers: Record<string, string | string[] | undefined>; requestId?: string };
type Res = { setHeader(name: string, value: string): void };
type Next = (error?: unknown) => void;

/** A connect-style middleware, as both adapters run them. */
export type Middleware = (req: any, res: any, next: Next) => void;

/**
 * Runs middlewares one after the other as one: every middleware registered with the adapter is a
 * router step (Express) or a middie step (Fastify) on every request, so the first steps of a
 * request are registered once.
 */
export function inSequence(steps: Middleware[]): Middleware {
  return (req, res, next) => {
    let i = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined || i === steps.length) return next(error);
      steps[i++](req, res, step);
    };
    step();
  };
}

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Every response carries X-Request-Id: the client's when well-formed, else a new UUID. */
export function requestId(req: Req, res: Res, next: Next): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
  req.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}

/** URLs longer than `max` (path and query string) are refused with 414 before any parsing. */
export function maxUrlLength(max: number) {
  return (req: Req, _res: Res, next: Next): void => {
    if (req.url.length > max) {
      next(new HttpException(`URL longer than ${max} characters`, HttpStatus.URI_TOO_LONG));
      return;
    }
    next();
  };
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

/**
 * A request that carries a body must say it is JSON (415 otherwise); empty bodies need no type.
 * A middleware rather than a Nest interceptor: it runs before either adapter parses the body, and
 * spares every request the interceptor chain (rxjs and async-hook bindings).
 */
export function requireJsonBody(req: Req, _res: Res, next: Next): void {
  const { headers } = req;
  const length = Number(headers['content-length'] ?? 0);
  const hasBody = length > 0 || headers['transfer-encoding'] !== undefined;
  if (hasBody && !JSON_TYPE.test(String(headers['content-type'] ?? ''))) {
    next(new UnsupportedMediaTypeException('Body must be application/json'));
    return;
  }
  next();
}
