import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Arbitrary constant identifying this service's migration lock (pg_advisory_lock key). */
const MIGRATION_LOCK_KEY = 727_117_001;

/**
 * Runs pending migrations, each in its own transaction. With `locked`, a session advisory lock
 * on a dedicated connection makes concurrent starts of several instances run them once.
 */
export async function runMigrations(dataSource: DataSource, { locked }: { locked: boolean }): Promise<string[]> {
  const logger = new Logger('Migrations');
  const runner = locked ? dataSource.createQueryRunner() : undefined;
  try {
    if (runner) await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) logger.log(`applied ${migration.name}`);
    return applied.map((m) => m.name);
  } finally {
    if (runner) {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      await runner.release();
    }
  }
}

/** True when every migration known to the code has been applied (readiness check). */
export async function migrationsApplied(dataSource: DataSource): Promise<boolean> {
  return !(await dataSource.showMigrations());
}

/** A round trip to the database (readiness): resolves when it answers. */
export async function pingDatabase(dataSource: DataSource): Promise<void> {
  await dataSource.query('SELECT 1');
}
