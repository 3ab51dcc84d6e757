import { resolve } from 'node:path';
import { DatabaseTierConfig, readDatabaseConfig } from './database-config';
import { Env, EnvReader } from './env-reader';
import { FilesConfig, FileStorageConfig, readFilesConfig, readFileStorageConfig } from './file-storage-config';
import { MetricsConfig, readMetricsConfig } from './metrics-config';

/**
 * Every setting of the service, read once from the environment.
 * `loadConfig` fails fast with one message listing every invalid variable.
 * The configuration tables of the README and docs/operations.md mirror this file.
 */
export interface AppConfig {
  /** HTTP server under NestJS (`HTTP_ADAPTER`): express (default) or fastify (faster). */
  httpAdapter: 'express' | 'fastify';
  /** HTTP port (`PORT`, default 3000). */
  port: number;
  /** Interface to bind (`HOST`, default 127.0.0.1; the Docker image sets 0.0.0.0). */
  host: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** Pooler mode, prepared statements and the direct connection (DATABASE_POOL_MODE...: database-config.ts). */
  database: DatabaseTierConfig;
  /** Folder of the embedded database and its generated key (`DATA_DIR`, default ./data). */
  dataDir: string;
  /** Connections per process on a real PostgreSQL (`DB_POOL_SIZE`, default 10). */
  dbPoolSize: number;
  /** Milliseconds to wait for a free connection or a new one before answering 503 (`DB_CONNECT_TIMEOUT_MS`). */
  dbConnectTimeoutMs: number;
  /** Server-side statement timeout in milliseconds (`DB_STATEMENT_TIMEOUT_MS`). */
  dbStatementTimeoutMs: number;
  /** Run pending migrations at start (`MIGRATIONS_RUN`, default true). */
  migrationsRun: boolean;
  /** TYPEORM_LOGGING=true: TypeORM logs every statement (migrations, schema checks). */
  typeormLogging: boolean;
  /** 32-byte key (base64 or hex) for secret fields and cursor signatures (`ENCRYPTION_KEY`). */
  encryptionKey?: string;
  /** Request body limit in bytes (`BODY_LIMIT`, default 10 MB). */
  bodyLimitBytes: number;
  /** Records per create-many (`BATCH_MAX`, default 200). */
  batchMax: number;
  /** Records one bulk update, delete or restore may touch (BULK_MAX). */
  bulkMax: number;
  /** Default and maximum page size (`PAGE_SIZE_DEFAULT` 60, `PAGE_SIZE_MAX` 200). */
  pageSizeDefault: number;
  pageSizeMax: number;
  /** Records per one-to-many relation at depth >= 1 (`RELATION_LIMIT`, default 60). */
  relationLimit: number;
  /** Milliseconds a verified API key is trusted before it is looked up again (`API_KEY_CACHE_TTL_MS`, default 2000, max 5000). */
  apiKeyCacheTtlMs: number;
  /** Create and print a first API key when none exists (`BOOTSTRAP_API_KEY`, default true). */
  bootstrapApiKey: boolean;
  /** Run the webhook dispatcher in this process (`WEBHOOK_DISPATCH`, default true). */
  webhookDispatch: boolean;
  /** Delays between delivery attempts in ms (`WEBHOOK_RETRY_SCHEDULE_MS`): ~1 s, 5 s, 15 s ... 24 h. */
  webhookRetryScheduleMs: number[];
  /** How often idle dispatchers look for due deliveries (`WEBHOOK_POLL_MS`, default 1000). */
  webhookPollMs: number;
  /**
   * Let webhooks target loopback, private, link-local and other non-public addresses
   * (`WEBHOOK_ALLOW_PRIVATE_TARGETS`, default false): for development and internal integrations.
   */
  webhookAllowPrivateTargets: boolean;
  /** Redis for counters shared by every instance (`REDIS_URL`); unset: counters in memory. */
  redisUrl?: string;
  /** Start of every Redis key (`REDIS_KEY_PREFIX`, default `crm:`): services sharing one Redis keep apart. */
  redisKeyPrefix: string;
  /** Requests per API key per second and per minute (`RATE_LIMIT_PER_SECOND` 100, `RATE_LIMIT_PER_MINUTE` 6000). */
  rateLimitPerSecond: number;
  rateLimitPerMinute: number;
  /** Origins allowed by CORS (`CORS_ORIGINS`, comma-separated); unset: CORS off. */
  corsOrigins: string[];
  /** Deepest nesting of and/or/not in a filter (`MAX_FILTER_DEPTH`, default 32). */
  maxFilterDepth: number;
  /** Deepest nesting of objects and arrays in a request body (`MAX_BODY_DEPTH`, default 32). */
  maxBodyDepth: number;
  /** Longest accepted URL, path and query string (`MAX_URL_LENGTH`, default 8192): 414 above (Node itself refuses request heads over 16 KB). */
  maxUrlLength: number;
  /** Reuse exact counts until the collection changes (`COUNT_CACHE`: auto (default), on, off); see CountCache. */
  countCache: 'auto' | 'on' | 'off';
  /** Longest a cached count is reused, in ms (`COUNT_CACHE_TTL_MS`, 60000); up to how many matches `Prefer: count=estimated` counts exactly (`COUNT_EXACT_LIMIT`, 10000). */
  countCacheTtlMs: number;
  countExactLimit: number;
  /** On SIGTERM/SIGINT, how long in-flight requests may take before their connections are closed (`SHUTDOWN_TIMEOUT_MS`, default 10000). */
  shutdownTimeoutMs: number;
  /** pino level (`LOG_LEVEL`, default info). */
  logLevel: string;
  /**
   * How far V8 lets the old generation grow past what survived the last full GC, in percent
   * (`HEAP_GROWTH_PERCENT`, default 50; 0 = V8's own factor, up to 300 %). Set by main.ts.
   */
  heapGrowthPercent: number;
  /** Days a change-feed entry is kept (`CHANGES_RETENTION_DAYS`, default 7); an older token answers 410. */
  changesRetentionDays: number;
  /** Largest import body (`IMPORT_MAX_BYTES`, a size such as 1gb; default 1 GiB): past it a 413 and nothing kept. */
  importMaxBytes: number;
  /** Days a finished import job and its error report are kept (`IMPORT_RETENTION_DAYS`, default 7). */
  importRetentionDays: number;
  /** Seconds a running import is held unrenewed before another instance resumes it (`IMPORT_LEASE_SECONDS`, 30). */
  importLeaseSeconds: number;
  /** How often an instance trims expired change-feed entries, in ms (`CHANGES_TRIM_INTERVAL_MS`, default 60000). */
  changesTrimIntervalMs: number;
  /** Longest silence on a change stream before a comment line is sent, in ms (`CHANGES_KEEPALIVE_MS`, default 15000). */
  changesKeepAliveMs: number;
  /** Where attachment files are stored: a folder under DATA_DIR, or S3 when `S3_BUCKET` is set. */
  fileStorage: FileStorageConfig;
  /** Limits, signed links and cleanup of attachment files (FILE_*, PUBLIC_URL). */
  files: FilesConfig;
  /** The metrics listener (METRICS_*). */
  metrics: MetricsConfig;
}

/** 1 s, 5 s, 15 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h: ten attempts over more than 45 h. */
export const DEFAULT_RETRY_SCHEDULE_MS = [1e3, 5e3, 15e3, 60e3, 300e3, 1_800e3, 7_200e3, 21_600e3, 43_200e3, 86_400e3];

function retrySchedule(read: EnvReader, raw: string): number[] {
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < 1)) {
    read.problems.push(`WEBHOOK_RETRY_SCHEDULE_MS must be a comma-separated list of positive integers (got '${raw}')`);
    return DEFAULT_RETRY_SCHEDULE_MS;
  }
  return values;
}

/** `memory://` keeps the embedded database in memory (tests); anything else is a folder. */
function dataDirOf(raw: string): string {
  return raw.startsWith('memory://') ? raw : resolve(raw);
}

/**
 * Reads and checks the whole configuration; throws one error listing every problem.
 * `forMigrations` skips what only serving needs (the TypeORM CLI needs no encryption key).
 */
export function loadConfig(env: Env = process.env, { forMigrations = false } = {}): AppConfig {
  const read = new EnvReader(env);
  const { databaseUrl, database } = readDatabaseConfig(read);
  const encryptionKey = read.optional('ENCRYPTION_KEY');
  if (databaseUrl && !encryptionKey && !forMigrations) {
    read.problems.push(
      'ENCRYPTION_KEY is required with DATABASE_URL (generate one with: openssl rand -base64 32); ' +
        'every instance on the same database needs the same key',
    );
  }
  const pageSizeMax = read.int('PAGE_SIZE_MAX', 200, 1, 10_000);
  const dataDir = dataDirOf(read.string('DATA_DIR', './data'));
  const host = read.string('HOST', '127.0.0.1');
  const config: AppConfig = {
    httpAdapter: read.oneOf('HTTP_ADAPTER', 'express', ['express', 'fastify'] as const),
    port: read.int('PORT', 3000, 0, 65535),
    host,
    metrics: readMetricsConfig(read, host),
    databaseUrl,
    database,
    dataDir,
    dbPoolSize: read.int('DB_POOL_SIZE', 10, 1, 1000),
    dbConnectTimeoutMs: read.int('DB_CONNECT_TIMEOUT_MS', 3000, 100, 60_000),
    dbStatementTimeoutMs: read.int('DB_STATEMENT_TIMEOUT_MS', 30_000, 0, 3_600_000),
    migrationsRun: read.bool('MIGRATIONS_RUN', true),
    typeormLogging: read.bool('TYPEORM_LOGGING', false),
    encryptionKey,
    bodyLimitBytes: read.size('BODY_LIMIT', '10mb', 1024, '10mb or 1048576'),
    batchMax: read.int('BATCH_MAX', 200, 1, 10_000),
    bulkMax: read.int('BULK_MAX', 10_000, 1, 100_000),
    pageSizeDefault: read.int('PAGE_SIZE_DEFAULT', 60, 1, pageSizeMax),
    pageSizeMax,
    relationLimit: read.int('RELATION_LIMIT', 60, 1, 1000),
    apiKeyCacheTtlMs: read.int('API_KEY_CACHE_TTL_MS', 2000, 0, 5000),
    bootstrapApiKey: read.bool('BOOTSTRAP_API_KEY', true),
    redisUrl: read.optional('REDIS_URL'),
    redisKeyPrefix: read.string('REDIS_KEY_PREFIX', 'crm:'),
    rateLimitPerSecond: read.int('RATE_LIMIT_PER_SECOND', 100, 1, 1_000_000),
    rateLimitPerMinute: read.int('RATE_LIMIT_PER_MINUTE', 6000, 1, 60_000_000),
    corsOrigins: (read.optional('CORS_ORIGINS') ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    maxFilterDepth: read.int('MAX_FILTER_DEPTH', 32, 1, 256),
    maxBodyDepth: read.int('MAX_BODY_DEPTH', 32, 2, 256),
    maxUrlLength: read.int('MAX_URL_LENGTH', 8192, 256, 12_288),
    webhookDispatch: read.bool('WEBHOOK_DISPATCH', true),
    webhookRetryScheduleMs: retrySchedule(
      read,
      read.string('WEBHOOK_RETRY_SCHEDULE_MS', DEFAULT_RETRY_SCHEDULE_MS.join(',')),
    ),
    webhookPollMs: read.int('WEBHOOK_POLL_MS', 1000, 10, 60_000),
    webhookAllowPrivateTargets: read.bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    countCache: read.oneOf('COUNT_CACHE', 'auto', ['auto', 'on', 'off'] as const),
    countCacheTtlMs: read.int('COUNT_CACHE_TTL_MS', 60_000, 0, 3_600_000),
    countExactLimit: read.int('COUNT_EXACT_LIMIT', 10_000, 0, 10_000_000),
    shutdownTimeoutMs: read.int('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    logLevel: read.oneOf('LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    heapGrowthPercent: read.int('HEAP_GROWTH_PERCENT', 50, 0, 300),
    changesRetentionDays: read.int('CHANGES_RETENTION_DAYS', 7, 1, 36_500),
    changesTrimIntervalMs: read.int('CHANGES_TRIM_INTERVAL_MS', 60_000, 10, 86_400_000),
    importMaxBytes: read.size('IMPORT_MAX_BYTES', '1gb', 1, '1gb or 1073741824'),
    importRetentionDays: read.int('IMPORT_RETENTION_DAYS', 7, 1, 36_500),
    importLeaseSeconds: read.int('IMPORT_LEASE_SECONDS', 30, 2, 3600),
    changesKeepAliveMs: read.int('CHANGES_KEEPALIVE_MS', 15_000, 10, 15_000),
    fileStorage: readFileStorageConfig(read, dataDir),
    files: readFilesConfig(read),
  };
  if (read.problems.length > 0) {
    throw new Error(`Invalid configuration:\n  - ${read.problems.join('\n  - ')}`);
  }
  return config;
}

/** Injection token of the AppConfig object. */
export const APP_CONFIG = Symbol('APP_CONFIG');
