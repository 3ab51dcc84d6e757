import { DynamicModule } from '@nestjs/common';
import { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import pino, { DestinationStream, Level, Logger } from 'pino';
import { ACTOR_PROPERTY } from '../auth/request-actor.decorator';
import { AppConfig } from '../config/app-config';
import type { RequestActor } from '../model/record';
import { requestPath } from '../http/request-path';
import type { ResponseObserver } from '../http/response-done';
import { traceLogMixin } from '../tracing/tracing';

type Req = IncomingMessage & { requestId?: string; originalUrl?: string; [ACTOR_PROPERTY]?: RequestActor };

const QUIET_PATHS = new Set(['/rest/health', '/rest/ready']);
/** Log lines are written in blocks of this size, or after this long. */
const LOG_BLOCK_BYTES = 4096;
const LOG_FLUSH_MS = 250;

export interface Logging {
  /** The root pino logger (Nest's logger writes through it). */
  logger: Logger;
  /** One line per request, told by `observeResponses` (mounted first: even a request refused by the body parser is logged). */
  requestLine: ResponseObserver;
  /** nestjs-pino over the same logger, as Nest's logger. */
  module: DynamicModule;
}

/**
 * The request line, written when the response is done (or the client went away): method, path
 * (never the query string, which may carry personal data), status, duration, request id
 * (X-Request-Id) and the id of the API key. Headers and bodies are never logged, so neither is a
 * token or a secret. Health probes log at debug; 5xx at error.
 *
 * This is a few lines over pino rather than pino-http: pino-http builds two child loggers and
 * wraps serializers for every request, which cost a third of the throughput of a cached get-by-id
 * (measured with the bench), for the same line.
 */
function requestLogger(logger: Logger): ResponseObserver {
  return (request, res, durationMs) => {
    const req = request as Req;
    const status = res.statusCode;
    const path = requestPath(req);
    const level: Level = status >= 500 ? 'error' : QUIET_PATHS.has(path) ? 'debug' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    const line: Record<string, unknown> = {
      requestId: req.requestId,
      apiKeyId: req[ACTOR_PROPERTY]?.apiKeyId,
      req: { method: req.method, path },
      res: { statusCode: status },
      durationMs: Math.round(durationMs * 10) / 10,
    };
    if (!res.writableFinished) line.aborted = true; // the client closed the connection first
    logger[level](line, `${req.method} ${path} ${status}`);
  };
}

/**
 * Structured logs with pino: every Nest log line (through nestjs-pino's Logger) and one JSON
 * line per request, on stdout (or `stream`).
 */
export function createLogging(config: AppConfig, stream?: DestinationStream): Logging {
  // with tracing on, each line carries the active span's trace_id and span_id
  const options = { level: config.logLevel, base: { service: 'crm-record-service' }, mixin: traceLogMixin() };
  // stdout written asynchronously and in blocks: lines are buffered until 4 kB (~15 request
  // lines) or 250 ms have gathered, then written in one write (a write per request cost 12-14 us,
  // 5 % of a create one's CPU); pino flushes what is buffered when the process exits, so only a
  // SIGKILL can lose the last lines (at most 250 ms of them)
  const logger = pino(
    options,
    stream ?? pino.destination({ dest: 1, sync: false, minLength: LOG_BLOCK_BYTES, periodicFlush: LOG_FLUSH_MS }),
  );
  return {
    logger,
    requestLine: requestLogger(logger),
    // no per-request middleware (forRoutes: none): the lines that concern a request name its id
    // themselves, which spares an AsyncLocalStorage context on every request
    module: LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] }),
  };
}
