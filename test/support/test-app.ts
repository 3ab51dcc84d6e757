import { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { createApp, CreateAppOptions } from '../../src/app.factory';
import { createApiKey } from '../../src/collections/api-keys/first-api-key';
import { AppConfig } from '../../src/core/config/app-config';
import { Db } from '../../src/core/database/db';
import { Http } from './http';
import { ResponseValidator } from './openapi-validator';
import { createTestDatabase, TestDatabase } from './test-database';

export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  database: TestDatabase;
  /** Base URL of the REST root, e.g. http://127.0.0.1:41234/rest */
  baseUrl: string;
  /** A valid API token and a client that sends it. */
  token: string;
  http: Http;
  db: Db;
  /** Checks every response of `http` against the served OpenAPI document. */
  validator: ResponseValidator;
  close(): Promise<void>;
}

/** The settings every test server runs with, then `env` (its database, the suite's own). */
export function testServerEnv(env: Record<string, string>): Record<string, string> {
  return {
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    BOOTSTRAP_API_KEY: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // CI runs the suite on both HTTP adapters
    HTTP_ADAPTER: process.env.HTTP_ADAPTER ?? 'express',
    // suites fire requests faster than a client should; the rate-limit tests set their own limits
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_PER_MINUTE: '60000000',
    // no metrics listener (suites run side by side: a fixed port would clash); the metrics suite picks a free port
    METRICS_PORT: '0',
    ...env,
  };
}

/** The real application on the database of `env` (a suite's own servers), listening on a random port. */
export async function startTestServer(
  env: Record<string, string>,
): Promise<{ app: INestApplication; baseUrl: string }> {
  const { app } = await createApp({ env: testServerEnv(env) });
  await app.listen(0, '127.0.0.1');
  return { app, baseUrl: `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/rest` };
}

/**
 * Boots the real application (createApp) on a fresh database and a random port, with an API key.
 * Each test file gets its own database: PostgreSQL when TEST_DATABASE_URL is set, else PGlite.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: Pick<CreateAppOptions, 'logStream' | 'collections'> = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const { app, config } = await createApp({ ...options, env: testServerEnv({ ...database.env, ...env }) });
  await app.listen(0, '127.0.0.1');
  // PGlite runs in this process: a long statement holds the event loop, and the server's 5 s
  // keep-alive timer then fires just as the client reuses the idle connection (ECONNRESET). Idle
  // connections stay open here until the client closes them or the app closes.
  (app.getHttpServer() as Server).keepAliveTimeout = 120_000;
  const baseUrl = `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/rest`;
  const { token } = await createApiKey(app, 'e2e', new Date(Date.now() + 3600_000));
  const doc = (await (await fetch(`${baseUrl}/open-api/core`)).json()) as Record<string, unknown>;
  const validator = new ResponseValidator(doc);
  return {
    app,
    config,
    database,
    baseUrl,
    token,
    http: new Http(baseUrl, token, (method, path, response) => validator.check(method, path, response)),
    db: app.get(Db),
    validator,
    close: async () => {
      validator.report(expect.getState().testPath?.split('/').pop() ?? 'unknown');
      await app.close();
      await database.drop();
    },
  };
}
