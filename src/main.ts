import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { exitGracefullyOnSignals } from './core/http/graceful-shutdown';

async function main(): Promise<void> {
  const { app, config } = await createApp();
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
