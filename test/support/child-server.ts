import { ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer, AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_ENCRYPTION_KEY } from './test-app';
import type { Json } from './http';

/** The repository root (where src/ and node_modules/ are). */
export const ROOT = join(__dirname, '..', '..');

/**
 * The first port the kernel hands out for `listen(0)` and outgoing connections (Linux's
 * ip_local_port_range; 32768 by default).
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : 32768;
  } catch {
    return 32768; // not Linux: the IANA range starts at 49152, so this stays below it
  }
}

const PORT_BLOCK = 400;
let nextPortOffset = Math.floor(Math.random() * PORT_BLOCK);

/**
 * A TCP port free on 127.0.0.1 at the time of the call, for a child process to listen on.
 *
 * A port taken with `listen(0)` and released can be handed out again by the kernel to the next
 * `listen(0)` of a suite running alongside, before the child binds it: the child then fails to
 * start while its health check reaches the other suite's server (seen in CI). So the port comes
 * from below the kernel's ephemeral range, which `listen(0)` never uses, in a block of its own
 * for each jest worker (block 0 for processes outside jest), and is checked free by binding it.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.JEST_WORKER_ID ?? 0);
  const blocks = Math.floor((ephemeralLow() - 10_000) / PORT_BLOCK);
  if (blocks > worker) {
    const start = 10_000 + worker * PORT_BLOCK;
    for (let tries = 0; tries < PORT_BLOCK; tries++) {
      const port = start + (nextPortOffset++ % PORT_BLOCK);
      if (await bindable(port)) return port;
    }
  }
  // no room below the ephemeral range (or every port of the block taken): the kernel's choice
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The value of `promise`, or undefined when it takes longer than `ms` (the timer never outlives the call). */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The environment of a server child on PostgreSQL, as the reliability suites run it. */
export function serverEnv(
  databaseUrl: string,
  port: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    BOOTSTRAP_API_KEY: 'false',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_PER_MINUTE: '60000000',
    WEBHOOK_DISPATCH: 'false',
    METRICS_PORT: '0', // suites run side by side: a suite that scrapes gives a free port
    ...extra,
  };
}

/** Keeps the last `limit` characters of a stream (children must never block on a full pipe). */
class Tail {
  private text = '';
  constructor(private readonly limit = 20_000) {}
  push(chunk: Buffer | string): void {
    this.text += chunk.toString();
    if (this.text.length > this.limit) this.text = this.text.slice(-this.limit);
  }
  toString(): string {
    return this.text;
  }
}

const running = new Set<ChildProcess>();

/**
 * A process of the service (src/main.ts through ts-node, as in production but without a build),
 * with its output kept for diagnostics.
 */
export class ChildServer {
  readonly baseUrl: string;
  readonly output = new Tail();
  /** Resolves with the exit code and signal once the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  private constructor(
    readonly process: ChildProcess,
    readonly port: number,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}/rest`;
    process.stdout?.on('data', (chunk) => this.output.push(chunk));
    process.stderr?.on('data', (chunk) => this.output.push(chunk));
    this.exited = new Promise((resolve) => {
      process.once('exit', (code, signal) => {
        running.delete(process);
        resolve({ code, signal, at: Date.now() });
      });
    });
  }

  get pid(): number {
    return this.process.pid!;
  }

  get alive(): boolean {
    return this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Spawns the server without waiting for it. */
  static spawn(env: Record<string, string>, script = join(ROOT, 'src', 'main.ts')): ChildServer {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', script], {
      cwd: ROOT,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    return new ChildServer(child, Number(env.PORT));
  }

  /** Spawns the server and waits until GET /rest/health answers 200. */
  static async start(env: Record<string, string>, timeoutMs = 60_000): Promise<ChildServer> {
    const server = ChildServer.spawn(env);
    await server.waitHealthy(timeoutMs);
    return server;
  }

  async waitHealthy(timeoutMs = 60_000): Promise<void> {
    const started = Date.now();
    for (;;) {
      if (!this.alive) throw new Error(`the server exited before it was healthy:\n${this.output}`);
      const status = await probe(`${this.baseUrl}/health`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return;
      if (Date.now() - started > timeoutMs)
        throw new Error(`the server was not healthy after ${timeoutMs} ms:\n${this.output}`);
      await sleep(100);
    }
  }

  /** SIGKILL, and wait for the exit. */
  async kill(): Promise<void> {
    if (this.alive) this.process.kill('SIGKILL');
    await this.exited;
  }
}

/** Kills (SIGKILL) every server child still running; for afterAll, failures included. */
export async function killAllChildren(): Promise<void> {
  const children = [...running];
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await Promise.all(
    children.map((child) =>
      child.exitCode !== null || child.signalCode !== null
        ? undefined
        : new Promise((resolve) => child.once('exit', resolve)),
    ),
  );
}

export interface ProbeResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: Json;
}

/**
 * One HTTP request on a connection of its own (no keep-alive pool: `agent: false`), so it says
 * whether the server accepts NEW connections. Rejects with the socket error (ECONNREFUSED, ...).
 */
export function probe(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<ProbeResponse> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
          connection: 'close',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on('error', reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 30_000, () =>
      req.destroy(new Error(`timeout after ${options.timeoutMs ?? 30_000} ms`)),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Creates an API key on the database with the documented CLI (`npm run apikey:create`), which
 * also applies the migrations; returns the token.
 */
export async function createApiKeyWithCli(databaseUrl: string, name = 'reliability'): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      'ts-node/register/transpile-only',
      join(ROOT, 'src', 'cli', 'create-api-key.ts'),
      '--name',
      name,
      '--days',
      '1',
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        TS_NODE_TRANSPILE_ONLY: 'true',
        DATABASE_URL: databaseUrl,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  const output = new Tail();
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve)); // 'close': all output read
  const token = /crm_[A-Za-z0-9_-]{43}/.exec(String(output))?.[0];
  if (code !== 0 || !token) throw new Error(`apikey:create exited with ${code}:\n${output}`);
  return token;
}

export { seededRandom } from './seeded-random';
