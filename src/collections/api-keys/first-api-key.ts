import { INestApplicationContext, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../core/config/app-config';
import { Db } from '../../core/database/db';
import { CollectionCatalog } from '../../core/model/collection-catalog';
import { SYSTEM_ACTOR } from '../../core/model/record';
import { RecordWrites } from '../../core/records/record-writes';
import { Repositories } from '../../core/repository/repositories';

/** Arbitrary constant of the advisory lock that makes concurrent first starts create one key. */
const FIRST_KEY_LOCK = 727_117_002;

/** Creates an API key through the shared write path (events included) and returns its token (shown once). */
async function createKey(
  writes: RecordWrites,
  catalog: CollectionCatalog,
  name: string,
  expiresAt: Date,
  roleId: string | null = null,
): Promise<{ id: string; token: string }> {
  const { records } = await writes.create(
    catalog.require('apiKeys'),
    [{ name, expiresAt: expiresAt.toISOString(), roleId }],
    { depth: 0 },
    SYSTEM_ACTOR,
  );
  return { id: records[0].id as string, token: records[0].token as string };
}

/** Creates an API key in a running application (command-line tools, tests, benchmarks), of a role (by id) or none (admin). */
export function createApiKey(
  app: INestApplicationContext,
  name: string,
  expiresAt: Date,
  roleId: string | null = null,
): Promise<{ id: string; token: string }> {
  return createKey(app.get(RecordWrites), app.get(CollectionCatalog), name, expiresAt, roleId);
}

/**
 * On a first start (no API key at all), creates one and prints it once to the console,
 * so a new user can call the API without any manual step.
 */
@Injectable()
export class FirstApiKey implements OnApplicationBootstrap {
  constructor(
    private readonly db: Db,
    private readonly writes: RecordWrites,
    private readonly catalog: CollectionCatalog,
    private readonly repositories: Repositories,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.bootstrapApiKey) return;
    // Several instances may start at once on one PostgreSQL: a session lock serializes the
    // check-then-create (PGlite has a single process and connection: nothing to serialize)
    const createFirst = async () => {
      if (await this.repositories.get('apiKeys').reads.exists(this.db)) return undefined;
      const expiresAt = new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000);
      return (await createKey(this.writes, this.catalog, 'First key', expiresAt)).token;
    };
    const token = this.config.databaseUrl
      ? await this.db.withAdvisoryLock(FIRST_KEY_LOCK, createFirst)
      : await createFirst();
    if (!token) return;
    const url = `http://${this.config.host === '0.0.0.0' ? '127.0.0.1' : this.config.host}:${this.config.port}/rest`;
    const lines = [
      '',
      '='.repeat(78),
      ' First API key (shown once; keep it, or create others with POST /rest/apiKeys):',
      '',
      `   ${token}`,
      '',
      ` Try it:  curl -H "Authorization: Bearer ${token}" ${url}/companies`,
      ` Docs:    ${url}/docs`,
      '='.repeat(78),
      '',
    ];
    new Logger('FirstApiKey').log('created the first API key (printed below)');
    process.stdout.write(lines.join('\n') + '\n');
  }
}
