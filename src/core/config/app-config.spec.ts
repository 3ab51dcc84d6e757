import { loadConfig, parseByteSize } from './app-config';

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

  it('requires ENCRYPTION_KEY with DATABASE_URL, except for migrations', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://h/db' })).toThrow(/ENCRYPTION_KEY is required/);
    expect(loadConfig({ DATABASE_URL: 'postgres://h/db' }, { forMigrations: true }).databaseUrl).toBe(
      'postgres://h/db',
    );
  });

  it('parses sizes', () => {
    expect(parseByteSize('10mb')).toBe(10485760);
    expect(parseByteSize('512 KB')).toBe(524288);
    expect(parseByteSize('1024')).toBe(1024);
    expect(parseByteSize('ten')).toBeUndefined();
  });
});
