import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { AppModule } from '../app.module';
import { createApiKey } from '../collections/api-keys/first-api-key';
import { APP_CONFIG, loadConfig } from '../core/config/app-config';
import { adminAccess } from '../core/model/access';
import { CollectionCatalog } from '../core/model/collection-catalog';
import { parseListQuery } from '../core/query/list-query';
import { RecordReads } from '../core/records/record-reads';
import { KeyRing } from '../core/security/keys';

const USAGE = 'usage: npm run apikey:create -- --name NAME [--days 365] [--role ROLE_NAME]';

/** The id of the live role named `name` (API.md section 14); an error naming it when there is none. */
async function roleIdOf(app: INestApplicationContext, name: string): Promise<string> {
  const meta = app.get(CollectionCatalog).require('roles');
  const admin = adminAccess('command line');
  const filter = `name[eq]:"${name.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  const query = parseListQuery(meta, { filter, depth: '0' }, app.get(APP_CONFIG), app.get(KeyRing).cursorKey, admin);
  const { records } = await app.get(RecordReads).findMany(meta, query, admin, 'none');
  if (records.length === 0) throw new Error(`No role named '${name}' (create it with POST /rest/roles)`);
  return records[0].id as string;
}

/**
 * npm run apikey:create -- --name NAME [--days N] [--role ROLE_NAME]
 * Creates an API key on the configured database, of a role (by its name) or of none (an admin),
 * and prints its token once. On the embedded database, stop the server first (PGlite serves one
 * process); or use POST /rest/apiKeys.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { name: { type: 'string' }, days: { type: 'string', default: '365' }, role: { type: 'string' } },
  });
  if (!values.name) throw new Error(USAGE);
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1) throw new Error('--days must be a positive integer');
  const config = { ...loadConfig(), bootstrapApiKey: false };
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: ['error'] });
  try {
    const roleId = values.role === undefined ? null : await roleIdOf(app, values.role);
    const key = await createApiKey(app, values.name, new Date(Date.now() + days * 86_400_000), roleId);
    const of = values.role === undefined ? 'an admin key' : `role '${values.role}'`;
    process.stdout.write(`API key '${values.name}' (id ${key.id}, ${of}), shown once:\n${key.token}\n`);
  } finally {
    await app.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
