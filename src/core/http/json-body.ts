import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '../config/app-config';

type HttpAdapter = AppConfig['httpAdapter'];

/** `application/json` and the `application/*+json` family. */
const JSON_TYPES = /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i;

function parseFailure(): Error {
  return Object.assign(new Error('Body is not valid JSON'), { type: 'entity.parse.failed', statusCode: 400 });
}

/**
 * A JSON body whose `Content-Length` is over `limitBytes` is refused before any of it is read
 * (body-parser would read it all before answering): a 413 like body-parser's own (the exception
 * filter gives the envelope), with `Connection: close` so that Node closes the connection once
 * answered instead of reading the rest. A chunked body is checked by body-parser as it arrives.
 */
function refuseDeclaredOverLimit(limitBytes: number) {
  return (
    req: { headers: Record<string, string | string[] | undefined> },
    res: { setHeader(name: string, value: string): void },
    next: (error?: unknown) => void,
  ): void => {
    const { headers } = req;
    if (!(Number(headers['content-length']) > limitBytes) || !JSON_TYPES.test(String(headers['content-type'] ?? '')))
      return next();
    res.setHeader('Connection', 'close');
    next(Object.assign(new Error('Body is larger than the limit'), { type: 'entity.too.large', statusCode: 413 }));
  };
}

/**
 * The one reading of a JSON body on both adapters: `JSON.parse`, top-level primitives allowed
 * (the body pipes explain what they expect), `__proto__` kept as a plain key for the body checks
 * to refuse, and an empty body read as no body (`undefined`), never as `{}`: a create or an
 * update must not mistake an empty request for an empty record.
 */
export function parseJsonBody(source: string): unknown {
  if (source.trim() === '') return undefined;
  try {
    return JSON.parse(source);
  } catch {
    throw parseFailure();
  }
}

/**
 * Registers `parseJsonBody` for JSON content types on the app's adapter, with the size limit: a
 * body whose `Content-Length` is over it is a 413 before it is read (Fastify's `bodyLimit` does
 * the same, `Connection: close` included); a chunked one is a 413 once it passes the limit.
 */
export function useJsonBodies(app: INestApplication, adapter: HttpAdapter, limitBytes: number): void {
  if (adapter === 'fastify') {
    const instance = (app as NestFastifyApplication).getHttpAdapter().getInstance();
    instance.removeContentTypeParser('application/json');
    const parse = (_request: unknown, text: string | Buffer, done: (error: Error | null, body?: unknown) => void) => {
      let body: unknown;
      try {
        body = parseJsonBody(text.toString());
      } catch (error) {
        return done(error as Error);
      }
      done(null, body);
    };
    instance.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: limitBytes }, parse);
    instance.addContentTypeParser(/^application\/[\w.+-]+\+json/i, { parseAs: 'string', bodyLimit: limitBytes }, parse);
    // file uploads (API.md section 16) and imports (section 17): the body stays unread, streamed from the raw request
    const unread = (_request: unknown, _payload: unknown, done: (error: Error | null, body?: unknown) => void) =>
      done(null);
    instance.addContentTypeParser('multipart/form-data', unread);
    instance.addContentTypeParser(['text/csv', 'application/x-ndjson', 'application/ndjson'], unread);
    return;
  }
  const express = app as NestExpressApplication;
  express.use(refuseDeclaredOverLimit(limitBytes));
  // body-parser reads the bytes (limit, charset, inflate); the text is parsed here, as on Fastify
  express.useBodyParser('text', {
    limit: limitBytes,
    type: (req: { headers: Record<string, unknown> }) => JSON_TYPES.test(String(req.headers['content-type'] ?? '')),
  });
  express.use((req: { body?: unknown }, _res: unknown, next: (error?: unknown) => void) => {
    if (typeof req.body !== 'string') return next();
    try {
      req.body = parseJsonBody(req.body);
    } catch (error) {
      return next(error);
    }
    next();
  });
}
