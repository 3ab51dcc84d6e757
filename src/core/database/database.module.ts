import { PGlite } from '@electric-sql/pglite';
import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { DatabaseSchema, dataSourceOptions, openEmbeddedDatabase } from './data-source-options';
import { Db } from './db';
import { runMigrations } from './migrate';
import { Replicas } from './replicas';
import { Metrics } from '../metrics/metrics';
import { statementKind } from '../metrics/statement-kind';
import { PoolMetrics } from './pool-metrics';

/** The embedded database instance, or null on a real PostgreSQL. */
export const EMBEDDED_DB = Symbol('EMBEDDED_DB');

@Module({
  providers: [
    {
      provide: EMBEDDED_DB,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): PGlite | null =>
        config.databaseUrl ? null : openEmbeddedDatabase(config.dataDir),
    },
  ],
  exports: [EMBEDDED_DB],
})
class EmbeddedDatabaseModule {}

/** Closes the embedded database after TypeORM has ended its pool, so PGlite flushes to disk. */
@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EMBEDDED_DB) private readonly embedded: PGlite | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    if (this.embedded && !this.embedded.closed) await this.embedded.close();
  }
}

/**
 * The pg pool of this DataSource: `PostgresDriver.master`, the driver's public pool of the primary
 * (TypeORM has no replication here). One pool for TypeORM (migrations, readiness) and for `Db`:
 * on PGlite, a single connection must serve both so that transactions never interleave.
 */
/** `db_client_operation_duration_seconds`, by the statement's kind. */
function statementDurations(metrics: Metrics): (text: string, seconds: number) => void {
  const durations = metrics.histogram('db_client_operation_duration_seconds');
  return (text, seconds) => durations.observe({ db_operation_name: statementKind(text) }, seconds);
}

export function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/**
 * Pending migrations, on `DATABASE_DIRECT_URL` when set (a transaction-mode pooler cannot hold
 * the session lock that makes concurrent starts run them once), else on the service's pool.
 */
async function migrate(config: AppConfig, schema: DatabaseSchema, dataSource: DataSource): Promise<void> {
  if (!config.database.directUrl) {
    await runMigrations(dataSource, { locked: !!config.databaseUrl });
    return;
  }
  const direct = await new DataSource(dataSourceOptions(config, schema, undefined, { direct: true }))
    .initialize()
    .catch((error: Error) => {
      // say which setting named the server (a standby, say): DATABASE_URL may be fine
      error.message = `DATABASE_DIRECT_URL: ${error.message}`;
      throw error;
    });
  try {
    await runMigrations(direct, { locked: true });
  } finally {
    await direct.destroy();
  }
}

/**
 * Through a transaction-mode pooler a single statement outside a transaction runs under the
 * server's own `statement_timeout` (a pooler passes no per-client setting): say so at start when
 * that is none while DB_STATEMENT_TIMEOUT_MS asks for one.
 */
async function warnWithoutTimeout(db: Db, config: AppConfig): Promise<void> {
  if (!config.dbStatementTimeoutMs) return;
  const [{ statement_timeout: timeout }] = await db.query<{ statement_timeout: string }>('SHOW statement_timeout');
  if (timeout === '0')
    new Logger('Database').warn(
      `DATABASE_POOL_MODE=transaction: transactions run with statement_timeout=${config.dbStatementTimeoutMs} ms, ` +
        'single statements with the server default, which is none: set one for the role ' +
        `(ALTER ROLE <role> SET statement_timeout = '${config.dbStatementTimeoutMs}ms') or in the pooler's connect_query`,
    );
}

/**
 * The data layer: one TypeORM DataSource (entities, migrations) and the `Db` over its pool.
 * Pending migrations run at start, under an advisory lock when several instances share a database.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(schema: DatabaseSchema): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        EmbeddedDatabaseModule,
        TypeOrmModule.forRootAsync({
          imports: [EmbeddedDatabaseModule],
          inject: [APP_CONFIG, EMBEDDED_DB],
          useFactory: (config: AppConfig, embedded: PGlite | null) => ({
            ...dataSourceOptions(config, schema, embedded ?? undefined),
            // a database that is still starting: retry for about 30 s before giving up
            retryAttempts: 20,
            retryDelay: 1500,
          }),
          dataSourceFactory: async (options?: DataSourceOptions) => {
            const dataSource = await new DataSource(options!).initialize();
            const pool = poolOf(dataSource);
            // A dropped idle connection must not crash the process; the next query reconnects.
            pool.on('error', (error) => new Logger('Database').warn(`idle connection error: ${error.message}`));
            return dataSource;
          },
        }),
      ],
      providers: [
        {
          provide: Db,
          inject: [DataSource, APP_CONFIG, Metrics],
          useFactory: async (dataSource: DataSource, config: AppConfig, metrics: Metrics) => {
            if (config.migrationsRun) await migrate(config, schema, dataSource);
            const { poolMode, preparedStatements, directUrl } = config.database;
            const db = new Db(poolOf(dataSource), {
              preparedStatements,
              pooled: poolMode === 'transaction' ? { statementTimeoutMs: config.dbStatementTimeoutMs } : undefined,
              direct: directUrl
                ? { connectionString: directUrl, application_name: 'crm-record-service-lock' }
                : undefined,
              observe: config.metrics.port === 0 ? undefined : statementDurations(metrics),
            });
            if (poolMode === 'transaction') await warnWithoutTimeout(db, config);
            return db;
          },
        },
        DatabaseLifecycle,
        Replicas,
        PoolMetrics,
      ],
      exports: [Db, Replicas, EmbeddedDatabaseModule],
    };
  }
}
