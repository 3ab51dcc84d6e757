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

/** Registers `parseJsonBody` for JSON content types on the app's adapter, with the size limit. */
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
    // file uploads (API.md section 16): the body stays unread, the upload receiver streams it from the raw request
    instance.addContentTypeParser(
      'multipart/form-data',
      (_request: unknown, _payload: unknown, done: (error: Error | null, body?: unknown) => void) => done(null),
    );
    return;
  }
  const express = app as NestExpressApplication;
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
