// first: with OTEL_EXPORTER_OTLP_ENDPOINT set, the tracing SDK wraps http, pg and ioredis before they load
import './core/tracing/register';
import { Logger } from '@nestjs/common';
import { setFlagsFromString } from 'node:v8';
import { createApp } from './app.factory';
import { loadConfig } from './core/config/app-config';
import { exitGracefullyOnSignals } from './core/http/graceful-shutdown';
import { traceRequests } from './core/tracing/server-spans';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  // Left alone, V8 lets the old generation grow to up to 4x what survived the last full GC
  // before collecting it again: under 32 connections that took RSS to 300-330 MB for ~50 MB of
  // live data. A 1.5x bound keeps it near 200 MB (HEAP_GROWTH_PERCENT, docs/operations.md).
  if (config.heapGrowthPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`);
  // V8 "pretenures" the objects of an allocation site (allocates them in the old generation at
  // once) when most of them survived a young-generation GC once. Some of Fastify's per-request
  // sites got there during start-up and stayed: every request then left ~6 kB in the old
  // generation, a full GC every second and RSS 250-276 MB; without it, the young generation
  // reclaims them (get one on Fastify: +19 % req/s, RSS 196 MB, measured with npm run bench).
  setFlagsFromString('--no-allocation-site-pretenuring');
  const { app } = await createApp({ config });
  traceRequests(app);
  await app.listen(config.port, config.host);
  exitGracefullyOnSignals(app, config.shutdownTimeoutMs);
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}/rest`;
  const database = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  new Logger('Main').log(`serving ${url} (docs: ${url}/docs) on ${database}`);
}

main().catch((error: Error) => {
  // configuration and start-up errors: one readable message, exit code 1
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
