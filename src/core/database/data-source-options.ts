import type { Type } from '@nestjs/common';
import { Extension, PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PoolConfig, types as pgTypes } from 'pg';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import type { CollectionDefinition } from '../model/collection-definition';
import { bindCollectionEntities } from './record-entity';
import { assertWritable } from './writable-primary';

// The package types contrib/* as ECMAScript only; its CommonJS build is there at run time.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

/**
 * Type parsers of this service's connections: bigint (counts) as JS numbers; dates, timestamps
 * and numerics as the exact text PostgreSQL sent (the record codec converts them; cursors keep
 * microseconds and full precision).
 */
const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case pgTypes.builtins.INT8:
        return (value: string) => Number(value);
      case pgTypes.builtins.DATE:
      case pgTypes.builtins.TIMESTAMPTZ:
      case pgTypes.builtins.TIMESTAMP:
      case pgTypes.builtins.NUMERIC:
        return (value: string) => value;
      default:
        return pgTypes.getTypeParser(oid, format);
    }
  },
};

/** Opens (or creates) the embedded database in `dataDir`. */
export function openEmbeddedDatabase(dataDir: string): PGlite {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const location = dataDir.startsWith('memory://') ? dataDir : join(dataDir, 'pglite');
  return new PGlite(location, { extensions: { pg_trgm } });
}

/** What the database holds: the collections' tables and the other tables (outbox, idempotency keys). */
export interface DatabaseSchema {
  collections: readonly CollectionDefinition[];
  entities: Type[];
}

/**
 * The options of a `pg` pool on a PostgreSQL server. Session settings go as startup parameters,
 * except through a transaction-mode pooler (`pooled`), which refuses them: there `Db` sets the
 * statement timeout per transaction. Every new connection first checks that it reached a
 * writable primary (a failover endpoint may still lead to a standby in recovery).
 */
function serverPoolOptions(config: AppConfig, pooled: boolean): PoolConfig {
  return {
    max: config.dbPoolSize,
    connectionTimeoutMillis: config.dbConnectTimeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    types: typeParsers,
    application_name: 'crm-record-service',
    onConnect: assertWritable,
    ...(pooled
      ? {}
      : {
          statement_timeout: config.dbStatementTimeoutMs || undefined,
          // JIT compiles a statement when its estimated cost is high; for this service's statements
          // (a set-based write of 10,000 rows, an aggregate over 100,000) compiling costs more than
          // it saves (900 ms of a 3.4 s update of 10,000 people), so it is off for its sessions
          options: '-c TimeZone=UTC -c jit=off',
        }),
  };
}

/**
 * The pools of the read replicas: as the primary's, without the writable check (a replica is in
 * recovery), connecting within `REPLICA_TIMEOUT_MS`; each read sets its own timeout (Replicas).
 */
export function replicaPoolOptions(config: AppConfig): PoolConfig {
  const pooled = config.database.poolMode === 'transaction';
  return {
    ...serverPoolOptions(config, pooled),
    onConnect: undefined,
    connectionTimeoutMillis: config.database.replicaTimeoutMs,
    application_name: 'crm-record-service-read',
  };
}

/**
 * The ONE definition of the database connection, used by the application and the TypeORM CLI.
 * With `DATABASE_URL`: a `pg` pool of `DB_POOL_SIZE` connections (`direct`: on
 * `DATABASE_DIRECT_URL` when set, for migrations). Without: the embedded PGlite database behind
 * the same `pg` driver through PGlite's node-postgres adapter (a pool of one connection, so
 * transactions never interleave).
 */
export function dataSourceOptions(
  config: AppConfig,
  schema: DatabaseSchema,
  embedded?: PGlite,
  { direct = false } = {},
): DataSourceOptions {
  const common = {
    type: 'postgres' as const,
    entities: [...bindCollectionEntities(schema.collections), ...schema.entities],
    migrations: [join(__dirname, '..', '..', 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    uuidExtension: 'pgcrypto' as const,
    logging: config.typeormLogging ? ('all' as const) : (['error'] as 'error'[]),
  };
  if (config.databaseUrl) {
    const directUrl = direct ? config.database.directUrl : undefined;
    const pooled = !directUrl && config.database.poolMode === 'transaction';
    return { ...common, url: directUrl ?? config.databaseUrl, extra: serverPoolOptions(config, pooled) };
  }
  const pglite = embedded ?? openEmbeddedDatabase(config.dataDir);
  return {
    ...common,
    extra: {
      ...createPgConfig(pglite),
      max: 1,
      idleTimeoutMillis: 0,
      types: typeParsers,
    },
  };
}
