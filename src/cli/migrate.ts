import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { DATABASE_SCHEMA } from '../collections';
import { loadConfig } from '../core/config/app-config';
import { dataSourceOptions, openEmbeddedDatabase } from '../core/database/data-source-options';
import { runMigrations } from '../core/database/migrate';

/** Applies pending migrations (the Docker image runs this before the server). */
async function main(): Promise<void> {
  const config = loadConfig(process.env, { forMigrations: true });
  const embedded = config.databaseUrl ? undefined : openEmbeddedDatabase(config.dataDir);
  const dataSource = await new DataSource(
    dataSourceOptions(config, DATABASE_SCHEMA, embedded, { direct: true }),
  ).initialize();
  try {
    const applied = await runMigrations(dataSource, { locked: !!config.databaseUrl });
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'no pending migration\n');
  } finally {
    await dataSource.destroy();
    await embedded?.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
