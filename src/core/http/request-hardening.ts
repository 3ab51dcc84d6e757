import { HttpException, HttpStatus, UnsupportedMediaTypeException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';

type Req = { url: string; headers: Record<string, string | string[] | undefined>; requestId?: string };
type Res = { setHeader(name: string, value: string): void };
type Next = (error?: unknown) => void;

/** A connect-style middleware, as both adapters run them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each adapter and library passes its own request and response types
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
export function requireJsonBody(req: Req, res: Res, next: Next): void {
  requireJsonBodyExcept(new Set())(req, res, next);
}

const MULTIPART_TYPE = /^multipart\/form-data\s*(;|$)/i;

const IMPORT_TYPE = /^(?:text\/csv|application\/(?:x-)?ndjson)\s*(;|$)/i;
/** `POST /rest/<plural>/import`, whatever the plural (an unknown one is answered by the route). */
const IMPORT_PATH = /^\/rest\/[^/]+\/import$/;

/**
 * requireJsonBody, except that a POST to one of `uploadPaths` (`/rest/attachments`) may also be
 * multipart/form-data; an import (`POST /rest/people/import`) takes CSV or NDJSON, nothing else.
 */
export function requireJsonBodyExcept(uploadPaths: ReadonlySet<string>) {
  return (req: Req & { method?: string }, _res: Res, next: Next): void => {
    const { headers } = req;
    const length = Number(headers['content-length'] ?? 0);
    const hasBody = length > 0 || headers['transfer-encoding'] !== undefined;
    const type = String(headers['content-type'] ?? '');
    const path = req.url.split('?')[0];
    const importing = req.method === 'POST' && IMPORT_PATH.test(path);
    if (hasBody && importing && !IMPORT_TYPE.test(type)) {
      next(new UnsupportedMediaTypeException('Body must be text/csv or application/x-ndjson'));
      return;
    }
    if (hasBody && !JSON_TYPE.test(type)) {
      const upload = req.method === 'POST' && ((MULTIPART_TYPE.test(type) && uploadPaths.has(path)) || importing);
      if (!upload) {
        next(new UnsupportedMediaTypeException('Body must be application/json'));
        return;
      }
    }
    next();
  };
}

type HeaderCall = ['set', string, string | number | readonly string[]] | ['remove', string];

/** What a middleware does to a response it is handed (headers set and removed, in order). */
function recordHeaders(middleware: Middleware, url: string, headers: Record<string, string>): HeaderCall[] | undefined {
  const calls: HeaderCall[] = [];
  let passed = false;
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => void calls.push(['set', name, value]),
    removeHeader: (name: string) => void calls.push(['remove', name]),
    getHeader: () => undefined,
  };
  middleware({ url, method: 'GET', headers }, res, (error?: unknown) => {
    passed = error === undefined;
  });
  return passed ? calls : undefined;
}

/**
 * The response headers of a middleware whose headers do not depend on the request (helmet with
 * its default options: CSP without nonces, HSTS, X-Content-Type-Options...), worked out once at
 * start-up and then set as a list: the same headers without a dozen nested middleware calls per
 * request. When two different requests do not get the same headers (a nonce, a per-path policy),
 * or the middleware does anything else, the middleware itself runs on every request instead.
 */
export function precomputedHeaders(middleware: Middleware): Middleware {
  const first = recordHeaders(middleware, '/rest/people', { host: 'a.example' });
  const second = recordHeaders(middleware, '/rest/docs?x=1', {
    host: 'b.example',
    'user-agent': 'x',
    accept: 'text/html',
  });
  if (!first || JSON.stringify(first) !== JSON.stringify(second)) return middleware;
  return (_req, res, next) => {
    for (const call of first) {
      if (call[0] === 'set') res.setHeader(call[1], call[2]);
      else res.removeHeader(call[1]);
    }
    next();
  };
}
