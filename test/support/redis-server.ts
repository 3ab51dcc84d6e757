import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './child-server';
import { commandLine } from './server-user';
import { announceSkippedSuite } from './skipped-suites';

/**
 * The redis-server binary: REDIS_SERVER_BIN when set (undefined if it cannot be run), else the
 * one on the PATH (or in /usr/bin, /usr/sbin, /usr/local/bin), else undefined.
 */
export function redisServerBinary(): string | undefined {
  const runnable = (path: string) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (process.env.REDIS_SERVER_BIN)
    return runnable(process.env.REDIS_SERVER_BIN) ? process.env.REDIS_SERVER_BIN : undefined;
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/sbin', '/usr/local/bin'];
  return dirs
    .filter(Boolean)
    .map((dir) => join(dir, 'redis-server'))
    .find(runnable);
}

/** A Redis of the test's own: redis-server on 127.0.0.1 and a free port, nothing saved to disk. */
export class RedisServer {
  /** On an exit without afterAll (a crash), no server is left behind. */
  private readonly exitHook = () => this.child.kill('SIGKILL');

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly url: string,
  ) {
    process.once('exit', this.exitHook);
  }

  static async start(binary: string): Promise<RedisServer> {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'crm-redis-'));
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('not ready after 10 s')), 10_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('error', (error) => (clearTimeout(timer), reject(error)));
      child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`exited with code ${code}`))));
    });
    try {
      await ready;
    } catch (error) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(
        `Redis for the tests: ${commandLine(binary, args)}\nfailed: ${(error as Error).message}\n${output.slice(-4000)}`,
        { cause: error },
      );
    }
    child.stdout!.removeAllListeners('data').resume(); // never block on a full pipe
    child.stderr!.removeAllListeners('data').resume();
    return new RedisServer(child, dir, `redis://127.0.0.1:${port}`);
  }

  async stop(): Promise<void> {
    process.removeListener('exit', this.exitHook);
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** What a suite that needs Redis gets from `redisForSuite`. */
export interface SuiteRedis {
  /** Whether the suite can run: TEST_REDIS_URL is set or the machine has redis-server. */
  enabled: boolean;
  /** describe, or describe.skip when there is no Redis to run on. */
  describe: jest.Describe;
  beforeAll(): Promise<void>;
  afterAll(): Promise<void>;
  /** REDIS_URL and this file's own REDIS_KEY_PREFIX, for the apps the suite starts (after beforeAll). */
  env(): { REDIS_URL: string; REDIS_KEY_PREFIX: string };
}

/**
 * For a suite that needs Redis, as postgresForSuite does for PostgreSQL: TEST_REDIS_URL when it
 * is set, else a redis-server of the file's own started in beforeAll; without either, the suite
 * is skipped and named at the end of the run with the command that makes it run (it fails
 * instead with REQUIRE_REDIS set, as in CI). Every test file
 * gets its own key prefix, so files running in parallel on one Redis never share a counter.
 */
export function redisForSuite(suite: string): SuiteRedis {
  const given = process.env.TEST_REDIS_URL;
  const binary = given ? undefined : redisServerBinary();
  const prefix = `crm-test-${process.env.JEST_WORKER_ID ?? 0}-${randomBytes(4).toString('hex')}:`;
  let own: RedisServer | undefined;
  // CI sets REQUIRE_REDIS: there, no Redis is a failure instead of a skip
  const enabled = Boolean(given || binary || process.env.REQUIRE_REDIS);
  if (!enabled)
    announceSkippedSuite(
      suite,
      `no Redis (${process.env.REDIS_SERVER_BIN ? `REDIS_SERVER_BIN=${process.env.REDIS_SERVER_BIN} cannot be run` : 'no redis-server on this machine'}, TEST_REDIS_URL unset)`,
      'apt-get install redis-server (the suite starts its own), or TEST_REDIS_URL=redis://127.0.0.1:6379 npm test',
    );
  return {
    enabled,
    describe: enabled ? describe : describe.skip,
    async beforeAll() {
      if (binary) own = await RedisServer.start(binary);
      else if (!given) throw new Error('REQUIRE_REDIS is set, but there is no redis-server and no TEST_REDIS_URL');
    },
    async afterAll() {
      await own?.stop();
      own = undefined;
    },
    env() {
      const url = given ?? own?.url;
      if (!url) throw new Error('redisForSuite: env() before beforeAll()');
      return { REDIS_URL: url, REDIS_KEY_PREFIX: prefix };
    },
  };
}
