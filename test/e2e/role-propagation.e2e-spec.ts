import { INestApplication } from '@nestjs/common';
import { createApp } from '../../src/app.factory';
import { postgresForSuite } from '../support/embedded-postgres';
import { Http } from '../support/http';
import { keyWithRole } from '../support/keys';
import { startTestApp, TEST_ENCRYPTION_KEY, TestApp } from '../support/test-app';

/**
 * A change of a role, or of a key's roleId, holds on every instance within 5 seconds (API.md
 * section 14): two instances on one PostgreSQL, the default key cache (API_KEY_CACHE_TTL_MS 2000),
 * the change written through one and watched through the other.
 */
const ownPostgres = postgresForSuite('role-propagation');
ownPostgres.describe('role changes across instances', () => {
  let t: TestApp;
  let other: INestApplication | undefined;
  let otherUrl: string;
  beforeAll(async () => {
    await ownPostgres.beforeAll();
    t = await startTestApp();
    ({ app: other } = await createApp({
      env: {
        ...t.database.env,
        METRICS_PORT: '0',
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        BOOTSTRAP_API_KEY: 'false',
        LOG_LEVEL: 'silent',
        WEBHOOK_DISPATCH: 'false',
      },
    }));
    await other.listen(0, '127.0.0.1');
    otherUrl = `${(await other.getUrl()).replace('[::1]', '127.0.0.1')}/rest`;
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
    await ownPostgres.afterAll();
  });

  /** Milliseconds from `start` (a write) until `check` passes on the other instance, polling every 100 ms for at most 7 s. */
  async function until(start: number, check: () => Promise<boolean>): Promise<number> {
    while (Date.now() - start < 7000) {
      if (await check()) return Date.now() - start;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Infinity;
  }

  it('a new grant, a removed action and a new roleId reach the other instance within 5 s', async () => {
    const key = await keyWithRole(t, [{ collection: 'people', actions: ['read'] }]);
    const onB = new Http(otherUrl, key.token);
    expect((await onB.get('/people')).status).toBe(200);
    expect((await onB.get('/companies')).status).toBe(403);

    const changed = Date.now();
    await t.http.patch(`/roles/${key.roleId}`, { permissions: [{ collection: 'companies', actions: ['read'] }] });
    const granted = await until(changed, async () => (await onB.get('/companies')).status === 200);
    const revoked = await until(changed, async () => (await onB.get('/people')).status === 403);
    const admin = (await t.http.post('/roles', { name: `admins ${Date.now()}`, admin: true })).body.data.createRole;
    const moved = Date.now();
    await t.http.patch(`/apiKeys/${key.keyId}`, { roleId: admin.id });
    const promoted = await until(moved, async () => (await onB.get('/apiKeys')).status === 200);
    console.log(
      `role propagation to another instance: grant ${granted} ms, removal ${revoked} ms, new roleId ${promoted} ms`,
    );
    for (const ms of [granted, revoked, promoted]) expect(ms).toBeLessThanOrEqual(5000);
  });
});
