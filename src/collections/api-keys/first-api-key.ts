import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../core/config/app-config';
import { CollectionCatalog } from '../../core/model/collection-meta';
import { CrudService } from '../../core/records/crud.service';
import { Db } from '../../core/database/db';

/** Arbitrary constant of the advisory lock that makes concurrent first starts create one key. */
const FIRST_KEY_LOCK = 727_117_002;

export const SYSTEM_ACTOR = { apiKeyId: '', apiKeyName: 'System', workspaceMemberId: null };

/** Creates an API key through the shared CRUD path and returns its token (shown once). */
export async function createApiKey(crud: CrudService, name: string, expiresAt: Date): Promise<{ id: string; token: string }> {
  const [created] = await crud.createMany(crud.meta('apiKeys'), [{ name, expiresAt: expiresAt.toISOString() }], { depth: '0' }, SYSTEM_ACTOR);
  return { id: created.id as string, token: created.token as string };
}

/**
 * On a first start (no API key at all), creates one and prints it once to the console,
 * so a new user can call the API without any manual step.
 */
@Injectable()
export class FirstApiKey implements OnApplicationBootstrap {
  constructor(
    private readonly db: Db,
    private readonly crud: CrudService,
    private readonly catalog: CollectionCatalog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.bootstrapApiKey) return;
    // Several instances may start at once on one PostgreSQL: a session lock on a dedicated
    // connection serializes the check-then-create (PGlite has a single process and connection).
    const lock = this.config.databaseUrl ? await this.db.pool.connect() : undefined;
    let token: string | undefined;
    try {
      if (lock) await lock.query('SELECT pg_advisory_lock($1)', [FIRST_KEY_LOCK]);
      const table = this.catalog.require('apiKeys').sqlTable;
      const [{ exists }] = await this.db.query<{ exists: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${table}) AS exists`);
      if (!exists) {
        const expiresAt = new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000);
        token = (await createApiKey(this.crud, 'First key', expiresAt)).token;
      }
    } finally {
      if (lock) {
        await lock.query('SELECT pg_advisory_unlock($1)', [FIRST_KEY_LOCK]).catch(() => undefined);
        lock.release();
      }
    }
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
