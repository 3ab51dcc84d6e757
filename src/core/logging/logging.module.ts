import { DynamicModule, RequestMethod } from '@nestjs/common';
import { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { LoggerModule } from 'nestjs-pino';
import pino, { DestinationStream, Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { ACTOR_PROPERTY } from '../auth/request-actor.decorator';
import { AppConfig } from '../config/app-config';
import type { RequestActor } from '../crud/record-writer';

type Req = IncomingMessage & { requestId?: string; originalUrl?: string; [ACTOR_PROPERTY]?: RequestActor };
type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

const pathOf = (req: Req): string => (req.originalUrl ?? req.url ?? '').split('?')[0];
const QUIET_PATHS = new Set(['/rest/health', '/rest/ready']);

export interface Logging {
  /** The root pino logger (Nest's logger writes through it). */
  logger: Logger;
  /** pino-http: mounted first, so every request is logged, even one refused by the body parser. */
  httpLogger: Middleware;
  /** nestjs-pino over the same logger: Nest log lines carry the request id of their request. */
  module: DynamicModule;
}

/**
 * Structured logs with pino: every Nest log line, and one JSON line per request with method, path
 * (never the query string, which may carry personal data), status, duration, request id
 * (X-Request-Id) and the id of the API key. Headers and bodies are never logged, so neither is a
 * token or a secret. Health probes log at debug.
 */
export function createLogging(config: AppConfig, stream?: DestinationStream): Logging {
  const options = { level: config.logLevel, base: { service: 'crm-record-service' } };
  const logger = stream ? pino(options, stream) : pino(options);
  const httpLogger = pinoHttp({
    logger,
    genReqId: (req: Req) => req.requestId ?? randomUUID(),
    customAttributeKeys: { responseTime: 'durationMs' },
    serializers: {
      req: (req: { method: string; raw: Req }) => ({ method: req.method, path: pathOf(req.raw) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: (err: Error) => ({ type: err.name, message: err.message }),
    },
    // evaluated again when the response finishes, after the guard has identified the key
    customProps: (req: Req) => {
      const actor = req[ACTOR_PROPERTY];
      return actor ? { requestId: req.requestId, apiKeyId: actor.apiKeyId } : { requestId: req.requestId };
    },
    customLogLevel: (req: Req, res: ServerResponse, error?: Error) => {
      if (error || res.statusCode >= 500) return 'error';
      if (QUIET_PATHS.has(pathOf(req))) return 'debug';
      return 'info';
    },
    customSuccessMessage: (req: Req, res: ServerResponse) => `${req.method} ${pathOf(req)} ${res.statusCode}`,
    customErrorMessage: (req: Req, res: ServerResponse) => `${req.method} ${pathOf(req)} ${res.statusCode}`,
  }) as unknown as Middleware;
  return { logger, httpLogger, module: LoggerModule.forRoot({
      pinoHttp: { logger },
      useExisting: true,
      // a named wildcard, as path-to-regexp 8 wants (its default '*' logs a deprecation warning)
      forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    }),
  };
}
