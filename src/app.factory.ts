import { INestApplication, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { METHODS } from 'node:http';
import { AppModule } from './app.module';
import type { CollectionRegistration } from './collections';
import { AppConfig, loadConfig } from './core/config/app-config';
import { createLogging } from './core/logging/logging.module';
import { ERROR_NAMES, ErrorEnvelope } from './core/errors/error-names';
import { useJsonBodies } from './core/http/json-body';
import { ExpressRouteIndex } from './core/http/route-index';
import { UnusedConnections } from './core/http/unused-connections';
import { ExpressJsonAdapter } from './core/http/express-json-adapter';
import { setupOpenApi } from './core/openapi/openapi.module';
import { inSequence, maxUrlLength, requestId, requireJsonBodyExcept } from './core/http/request-hardening';
import { COLLECTIONS } from './collections';
import { securityHeaders } from './core/http/security-headers';
import { observeResponses } from './core/http/response-done';
import { Metrics } from './core/metrics/metrics';
import { httpMetrics, trackFastifyRoutes } from './core/observability/http-metrics';
import { ObservabilityModule } from './core/observability/observability.module';

export interface CreateAppOptions {
  /** Environment to read the configuration from (default: process.env). */
  env?: Record<string, string | undefined>;
  /** A ready configuration (wins over `env`). */
  config?: AppConfig;
  /** Where JSON log lines go (default: stdout). */
  logStream?: DestinationStream;
  /** The collections served (default: COLLECTIONS); a test may add a collection of its own. */
  collections?: CollectionRegistration[];
}

/** Nest's start-up chatter (one line per module and route) goes to debug; everything else as is. */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

function quietStartup(logger: PinoNestLogger): LoggerService {
  return {
    log: (message: unknown, ...rest: unknown[]) =>
      STARTUP_CONTEXTS.has(rest[rest.length - 1] as string)
        ? logger.debug(message, ...rest)
        : logger.log(message, ...rest),
    error: (message: unknown, ...rest: unknown[]) => logger.error(message, ...rest),
    warn: (message: unknown, ...rest: unknown[]) => logger.warn(message, ...rest),
    debug: (message: unknown, ...rest: unknown[]) => logger.debug(message, ...rest),
    verbose: (message: unknown, ...rest: unknown[]) => logger.verbose(message, ...rest),
    fatal: (message: unknown, ...rest: unknown[]) => logger.fatal(message, ...rest),
  };
}

/**
 * Builds the whole application (used by main.ts and by the e2e tests): configuration,
 * database and migrations, routes under /rest, JSON body limits, OpenAPI and Swagger UI.
 */
export async function createApp(options: CreateAppOptions = {}): Promise<{ app: INestApplication; config: AppConfig }> {
  const config = options.config ?? loadConfig(options.env ?? process.env);
  const logging = createLogging(config, options.logStream);
  const root = AppModule.forRoot(config, logging.module, options.collections);
  // the Express routes are indexed by path once they are all registered (route-index.ts)
  // and a serving instance has its metrics listener (the command-line tools do not); at close, the
  // connections that never sent a request are closed (unused-connections.ts)
  const module = {
    ...root,
    imports: [...(root.imports ?? []), ObservabilityModule],
    providers: [...(root.providers ?? []), ExpressRouteIndex, UnusedConnections],
  };
  const nestOptions = { bodyParser: false, bufferLogs: true, abortOnError: false };
  let app: INestApplication;
  if (config.httpAdapter === 'fastify') {
    const adapter = new FastifyAdapter({
      bodyLimit: config.bodyLimitBytes,
      // ids are validated by the routes (400 for a malformed one), not cut off by the router
      routerOptions: { maxParamLength: 1024 },
      // the request id is ours (X-Request-Id); Fastify's own request logger stays off
      logger: false,
      // errors Fastify answers before any route or filter runs (a malformed percent-encoding)
      frameworkErrors: ((
        error: Error,
        _request: unknown,
        reply: { code(status: number): { send(body: unknown): void } },
      ) => {
        const envelope: ErrorEnvelope = {
          statusCode: 400,
          error: ERROR_NAMES[400],
          messages: [`Malformed URL: ${error.message}`],
        };
        reply.code(400).send(envelope);
      }) as never,
    });
    // every method Node's parser reads reaches the routes, as on Express: the catch-all then says
    // which methods a path takes, where Fastify's router knows nine methods and answers 404 for
    // the rest (PROPFIND, PURGE...); their bodies are not read (CONNECT never routes in Node)
    const fastify = adapter.getInstance();
    for (const method of METHODS)
      if (method !== 'CONNECT' && !fastify.supportedMethods.includes(method)) fastify.addHttpMethod(method);
    app = await NestFactory.create<NestFastifyApplication>(module, adapter, nestOptions);
  } else {
    const express = await NestFactory.create<NestExpressApplication>(module, new ExpressJsonAdapter(), nestOptions);
    express.disable('x-powered-by');
    // ETags are the record versions the API sets itself, not hashes of every response body
    express.set('etag', false);
    express.set('query parser', 'simple');
    app = express;
  }
  app.useLogger(quietStartup(app.get(PinoNestLogger)));
  const metricsOn = config.metrics.port !== 0;
  if (metricsOn && config.httpAdapter === 'fastify') trackFastifyRoutes(app);
  // security headers: helmet's full set on Swagger UI's pages (served by setupOpenApi at /rest/docs), an API set elsewhere
  app.use(
    inSequence([
      observeResponses([logging.requestLine, ...(metricsOn ? [httpMetrics(app.get(Metrics))] : [])]),
      requestId,
      maxUrlLength(config.maxUrlLength),
      // multipart file uploads go to the collections with files (API.md section 16)
      requireJsonBodyExcept(
        new Set(
          (options.collections ?? COLLECTIONS)
            .filter((c) => c.definition.files)
            .map((c) => `/rest/${c.definition.plural}`),
        ),
      ),
      securityHeaders('/rest/docs'),
    ]),
  );
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins,
      exposedHeaders: [
        'X-Request-Id',
        'ETag',
        'Idempotent-Replayed',
        'Retry-After',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
      ],
    });
  }
  useJsonBodies(app, config.httpAdapter, config.bodyLimitBytes);
  app.setGlobalPrefix('rest');
  setupOpenApi(app);
  return { app, config };
}
