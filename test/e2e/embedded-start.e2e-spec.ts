import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.factory';
import type { Json } from '../support/http';

/** What a new user gets: embedded PGlite in a folder, a first key printed once, data kept across restarts. */
describe('embedded database start (PGlite in a data folder)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'crm-embedded-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function start(): Promise<{ url: string; printed: string; close: () => Promise<void> }> {
    let printed = '';
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => {
      printed += chunk.toString();
      return true;
    }) as typeof process.stdout.write;
    try {
      const { app } = await createApp({
        env: { DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', METRICS_PORT: '0' },
      });
      await app.listen(0, '127.0.0.1');
      return { url: `${await app.getUrl()}/rest`, printed, close: () => app.close() };
    } finally {
      process.stdout.write = write;
    }
  }

  it('prints a working first key, keeps records across a restart, and prints no second key', async () => {
    const first = await start();
    const token = /crm_[A-Za-z0-9_-]{43}/.exec(first.printed)?.[0];
    expect(token).toBeDefined();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${first.url}/companies`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Kept' }),
    });
    expect(created.status).toBe(201);
    const { id } = ((await created.json()) as Json).data.createCompany;
    await first.close();

    expect(statSync(join(dataDir, 'encryption.key')).mode & 0o777).toBe(0o600);
    const second = await start();
    try {
      expect(second.printed).not.toMatch(/crm_[A-Za-z0-9_-]{43}/);
      const read = await fetch(`${second.url}/companies/${id}`, { headers });
      expect(read.status).toBe(200);
      expect(((await read.json()) as Json).data.company.name).toBe('Kept');
    } finally {
      await second.close();
    }
  });
});
