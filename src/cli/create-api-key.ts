import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { AppModule } from '../app.module';
import { createApiKey } from '../collections/api-keys/first-api-key';
import { loadConfig } from '../core/config/app-config';

/**
 * npm run apikey:create -- --name NAME [--days N]
 * Creates an API key on the configured database and prints its token once. On the embedded
 * database, stop the server first (PGlite serves one process); or use POST /rest/apiKeys.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { name: { type: 'string' }, days: { type: 'string', default: '365' } } });
  if (!values.name) throw new Error('usage: npm run apikey:create -- --name NAME [--days 365]');
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1) throw new Error('--days must be a positive integer');
  const config = { ...loadConfig(), bootstrapApiKey: false };
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: ['error'] });
  try {
    const key = await createApiKey(app, values.name, new Date(Date.now() + days * 86_400_000));
    process.stdout.write(`API key '${values.name}' (id ${key.id}), shown once:\n${key.token}\n`);
  } finally {
    await app.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
