import { NestApplicationOptions, StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

type Response = ServerResponse & { req: IncomingMessage; status(code: number): unknown };
type HttpClass = typeof IncomingMessage | typeof ServerResponse;

/**
 * A subclass of Node's request (or response) class whose prototype stands in for Express's own
 * (`app.request` / `app.response`): same prototype chain, same own properties (`app`). A class,
 * not a function with a `prototype` set by hand: V8 caches the hidden class of the instances of a
 * derived class, not of objects built through `Reflect.construct` with another function.
 */
function expressClass<T extends HttpClass>(base: T, expressPrototype: object): T {
  const derived = class extends (base as typeof IncomingMessage) {};
  Object.setPrototypeOf(derived.prototype, Object.getPrototypeOf(expressPrototype));
  Object.defineProperties(derived.prototype, Object.getOwnPropertyDescriptors(expressPrototype));
  return derived as unknown as T;
}

/**
 * Nest's Express adapter, with two changes that keep the cost of a request down:
 *
 * 1. The HTTP server builds requests and responses with Express's prototypes from the start
 *    (`app.request` / `app.response` become the prototypes of subclasses of Node's classes,
 *    given to `createServer({ IncomingMessage, ServerResponse })`, Node's documented way to
 *    extend them). Express sets those prototypes on every request
 *    (`Object.setPrototypeOf(req, app.request)`), and V8 gives each object whose prototype
 *    changes a hidden class of its own: every property Express, the router and the middleware
 *    then add (`req.next`, `req.params`, `res.locals`...) created a new hidden class, ~11 per
 *    request, allocated in the old generation (garbage only a full GC reclaims) and making every
 *    property access on `req`/`res` megamorphic. With the prototype already right, Express's
 *    call is a no-op and requests share their hidden classes (expressjs/express#5998).
 * 2. JSON answers are written the way Node writes them best: serialized once, `Content-Type` and
 *    `Content-Length` set directly, the text handed to `res.end()` (sent in the same write as
 *    the headers). Express's `res.json()` → `res.send()` parses and re-formats the content type,
 *    re-encodes every body of 1,000 characters or more into a Buffer (a copy, and a second chunk
 *    to write) and checks freshness. Everything else goes through Express as before: conditional
 *    requests (`If-None-Match` / `If-Modified-Since`, which Express may answer 304), 204/205/304
 *    statuses, a content type set by the handler, strings, buffers, streams, errors.
 */
export class ExpressJsonAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions) return super.initHttpServer(options);
    const app = this.getInstance() as { request: object; response: object };
    const Request = expressClass(IncomingMessage, app.request);
    const Response = expressClass(ServerResponse, app.response);
    app.request = Request.prototype;
    app.response = Response.prototype;
    this.httpServer = createServer({ IncomingMessage: Request, ServerResponse: Response }, app as never);
    if (options?.forceCloseConnections) (this as unknown as { trackOpenConnections(): void }).trackOpenConnections();
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (statusCode) response.status(statusCode);
    const status = response.statusCode;
    const headers = response.req.headers;
    if (
      typeof body !== 'object' ||
      body === null ||
      body instanceof StreamableFile ||
      body instanceof Error ||
      ArrayBuffer.isView(body) ||
      status === 204 ||
      status === 205 ||
      status === 304 ||
      headers['if-none-match'] !== undefined ||
      headers['if-modified-since'] !== undefined ||
      response.hasHeader('content-type')
    ) {
      return super.reply(response, body, statusCode);
    }
    const text = JSON.stringify(body) as string | undefined;
    if (text === undefined) return super.reply(response, body, statusCode); // a toJSON() that returns nothing
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(text));
    // Node leaves the body out of a HEAD response itself
    return response.end(text);
  }
}
