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
export function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
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
          inject: [DataSource, APP_CONFIG],
          useFactory: async (dataSource: DataSource, config: AppConfig) => {
            if (config.migrationsRun) await runMigrations(dataSource, { locked: !!config.databaseUrl });
            return new Db(poolOf(dataSource));
          },
        },
        DatabaseLifecycle,
      ],
      exports: [Db, EmbeddedDatabaseModule],
    };
  }
}
