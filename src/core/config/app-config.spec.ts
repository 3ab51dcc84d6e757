import { loadConfig } from './app-config';
import { parseByteSize } from './env-reader';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      batchMax: 200,
      pageSizeDefault: 60,
      pageSizeMax: 200,
      bodyLimitBytes: 10 * 1024 * 1024,
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.redisKeyPrefix).toBe('crm:');
    expect(loadConfig({ REDIS_KEY_PREFIX: 'crm-staging:' }).redisKeyPrefix).toBe('crm-staging:');
  });

  it('lists every invalid variable at once', () => {
    let message = '';
    try {
      loadConfig({ PORT: 'x', BATCH_MAX: '0', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of [
      'PORT must be an integer',
      'DATABASE_URL must start with postgres',
      'LOG_LEVEL must be one of',
      'BATCH_MAX',
    ]) {
      expect(message).toContain(name);
    }
  });

  it('reads the metrics listener: on at 9464 by default, on HOST; a short token or a bad port refused', () => {
    expect(loadConfig({}).metrics).toEqual({ port: 9464, host: '127.0.0.1', token: undefined, refreshMs: 5000 });
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '0' }).metrics).toMatchObject({ port: 0, host: '0.0.0.0' });
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16 characters/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });

  it('requires ENCRYPTION_KEY with DATABASE_URL, except for migrations', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://h/db' })).toThrow(/ENCRYPTION_KEY is required/);
    expect(loadConfig({ DATABASE_URL: 'postgres://h/db' }, { forMigrations: true }).databaseUrl).toBe(
      'postgres://h/db',
    );
  });

  it('reads the pooler settings: transaction mode needs a direct URL and turns named statements off', () => {
    const url = { DATABASE_URL: 'postgres://pgbouncer:6432/crm' };
    expect(loadConfig(url, { forMigrations: true }).database).toEqual({
      poolMode: 'session',
      preparedStatements: true,
      directUrl: undefined,
      replicaUrls: [],
      replicaMaxLagMs: 5000,
      replicaTimeoutMs: 1000,
    });
    const pooled = { ...url, DATABASE_POOL_MODE: 'transaction', DATABASE_DIRECT_URL: 'postgres://primary/crm' };
    expect(loadConfig(pooled, { forMigrations: true }).database).toMatchObject({
      poolMode: 'transaction',
      preparedStatements: false,
      directUrl: 'postgres://primary/crm',
    });
    const replicas = {
      ...url,
      DATABASE_REPLICA_URLS: 'postgres://r1/crm, postgres://r2/crm',
      REPLICA_MAX_LAG_MS: '2000',
    };
    expect(loadConfig(replicas, { forMigrations: true }).database).toMatchObject({
      replicaUrls: ['postgres://r1/crm', 'postgres://r2/crm'],
      replicaMaxLagMs: 2000,
    });
    expect(() => loadConfig({ ...url, DATABASE_REPLICA_URLS: 'r1:5432' }, { forMigrations: true })).toThrow(
      /DATABASE_REPLICA_URLS must be a comma list/,
    );
    const named = { ...pooled, DATABASE_PREPARED_STATEMENTS: 'true' };
    expect(loadConfig(named, { forMigrations: true }).database.preparedStatements).toBe(true);
    expect(() => loadConfig({ ...url, DATABASE_POOL_MODE: 'transaction' }, { forMigrations: true })).toThrow(
      /DATABASE_POOL_MODE=transaction needs DATABASE_DIRECT_URL/,
    );
    expect(() => loadConfig({ DATABASE_POOL_MODE: 'statement' })).toThrow(/DATABASE_POOL_MODE must be one of/);
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'postgres://primary/crm' })).toThrow(/without DATABASE_URL/);
  });

  it('refuses private webhook targets unless WEBHOOK_ALLOW_PRIVATE_TARGETS is true', () => {
    expect(loadConfig({}).webhookAllowPrivateTargets).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhookAllowPrivateTargets).toBe(true);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'sometimes' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false/,
    );
  });

  it('parses sizes', () => {
    expect(parseByteSize('10mb')).toBe(10485760);
    expect(parseByteSize('512 KB')).toBe(524288);
    expect(parseByteSize('1024')).toBe(1024);
    expect(parseByteSize('ten')).toBeUndefined();
  });
});

describe('loadConfig: file storage', () => {
  it('stores files under DATA_DIR/files by default, in a temporary folder with an in-memory DATA_DIR', () => {
    expect(loadConfig({ DATA_DIR: '/srv/crm' }).fileStorage).toEqual({ kind: 'disk', directory: '/srv/crm/files' });
    expect(loadConfig({ DATA_DIR: 'memory://' }).fileStorage).toEqual({ kind: 'disk', directory: undefined });
  });

  it('stores files in S3 when S3_BUCKET is set: path style with an endpoint, the SDK credentials without keys', () => {
    expect(
      loadConfig({
        S3_BUCKET: 'crm-files',
        S3_ENDPOINT: 'http://minio:9000',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).fileStorage,
    ).toEqual({
      kind: 's3',
      bucket: 'crm-files',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    expect(loadConfig({ S3_BUCKET: 'crm-files', S3_REGION: 'eu-west-3' }).fileStorage).toEqual({
      kind: 's3',
      bucket: 'crm-files',
      region: 'eu-west-3',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: undefined,
    });
    expect(
      loadConfig({ S3_BUCKET: 'crm-files', S3_ENDPOINT: 'https://s3.example', S3_FORCE_PATH_STYLE: 'false' })
        .fileStorage,
    ).toMatchObject({ forcePathStyle: false });
  });

  it('refuses partial or malformed S3 settings with one message each, never showing a secret', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problems({ S3_ENDPOINT: 'http://minio:9000', S3_REGION: 'us-east-1' })).toContain(
      'S3_ENDPOINT, S3_REGION are set without S3_BUCKET',
    );
    expect(problems({ S3_SECRET_ACCESS_KEY: 'hunter2' })).toContain('S3_SECRET_ACCESS_KEY is set without S3_BUCKET');
    const message = problems({
      S3_BUCKET: 'Bad_Bucket',
      S3_ENDPOINT: 'minio:9000',
      S3_REGION: 'eu west',
      S3_SECRET_ACCESS_KEY: 'hunter2',
      S3_FORCE_PATH_STYLE: 'maybe',
    });
    for (const expected of [
      "S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens (got 'Bad_Bucket')",
      "S3_ENDPOINT must be an http:// or https:// URL such as http://minio:9000 (got 'minio:9000')",
      "S3_REGION must be a region name such as us-east-1 (got 'eu west')",
      'S3_SECRET_ACCESS_KEY is set without S3_ACCESS_KEY_ID',
      "S3_FORCE_PATH_STYLE must be true or false (got 'maybe')",
    ])
      expect(message).toContain(expected);
    expect(message).not.toContain('hunter2');
    expect(problems({ S3_BUCKET: 'crm-files', S3_ACCESS_KEY_ID: 'id' })).toContain(
      'S3_ACCESS_KEY_ID is set without S3_SECRET_ACCESS_KEY',
    );
  });
});
