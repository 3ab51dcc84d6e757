import { INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { AppModule } from './app.module';
import { AppConfig, loadConfig } from './core/config/app-config';
import { setupOpenApi } from './core/openapi/openapi.module';
import { maxUrlLength, requestId } from './core/security/request-hardening';

export interface CreateAppOptions {
  /** Environment to read the configuration from (default: process.env). */
  env?: Record<string, string | undefined>;
  /** A ready configuration (wins over `env`). */
  config?: AppConfig;
  logger?: LogLevel[] | false;
}

const LOG_LEVELS: Record<string, LogLevel[] | false> = {
  silent: false,
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  trace: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/**
 * Builds the whole application (used by main.ts and by the e2e tests): configuration,
 * database and migrations, routes under /rest, JSON body limits, OpenAPI and Swagger UI.
 */
export async function createApp(options: CreateAppOptions = {}): Promise<{ app: INestApplication; config: AppConfig }> {
  const config = options.config ?? loadConfig(options.env ?? process.env);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger: options.logger ?? LOG_LEVELS[config.logLevel],
    abortOnError: false,
  });
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(maxUrlLength(config.maxUrlLength));
  app.use(helmet());
  if (config.corsOrigins.length > 0) app.enableCors({ origin: config.corsOrigins, exposedHeaders: ['X-Request-Id', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] });
  // not strict: a top-level primitive reaches the body pipes, which explain what is expected
  app.useBodyParser('json', { limit: config.bodyLimitBytes, strict: false });
  app.setGlobalPrefix('rest');
  app.enableShutdownHooks();
  setupOpenApi(app);
  return { app, config };
}
