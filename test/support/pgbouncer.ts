import { ChildProcess, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort, sleep } from './child-server';
import { reachableTempRoot } from './postgres-binaries';
import { serverUser } from './server-user';

/** Debian's PgBouncer (`apt-get install pgbouncer`), or PGBOUNCER_BIN. */
export function pgbouncerBinary(): string | undefined {
  const candidates = [process.env.PGBOUNCER_BIN, '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];
  return candidates.find((path): path is string => !!path && existsSync(path));
}

export interface PgBouncerOptions {
  /** The PostgreSQL server it pools, on 127.0.0.1. */
  serverPort: number;
  poolMode: 'session' | 'transaction';
  /** Server connections per user and database (`default_pool_size`). */
  poolSize: number;
}

/** A server connection PgBouncer opened (`PgBouncer.serverConnections`); `closedAt` in ms since the epoch. */
export interface ServerConnection {
  fromPort: number;
  closedAt?: number;
  reason?: string;
}

/**
 * A PgBouncer of the test's own on 127.0.0.1 and a free port, in its default configuration but
 * for the pool mode and size (trust authentication against a one-line auth file, no
 * `ignore_startup_parameters`, no `connect_query`): what a user gets from the package. As root
 * it runs as the PostgreSQL server's user (PgBouncer refuses to run as root).
 */
export class PgBouncer {
  private exited = false;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly child: ChildProcess,
  ) {
    child.once('exit', () => (this.exited = true));
  }

  /** A connection string through the pooler to `database` on the server. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  static async start(binary: string, options: PgBouncerOptions): Promise<PgBouncer> {
    const user = serverUser();
    const dir = mkdtempSync(join(reachableTempRoot(user), 'crm-pgbouncer-'));
    const port = await freePort();
    writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
    const ini = [
      '[databases]',
      `* = host=127.0.0.1 port=${options.serverPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'admin_users = postgres',
      `pool_mode = ${options.poolMode}`,
      `default_pool_size = ${options.poolSize}`,
      'max_client_conn = 500',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
    ];
    writeFileSync(join(dir, 'pgbouncer.ini'), ini.join('\n') + '\n');
    if (user) chownSync(dir, user.uid, user.gid);
    for (const file of ['userlist.txt', 'pgbouncer.ini']) if (user) chownSync(join(dir, file), user.uid, user.gid);
    const child = spawn(binary, [join(dir, 'pgbouncer.ini')], {
      cwd: dir,
      stdio: 'ignore',
      env: { ...process.env, TZ: 'UTC' }, // its log's times, read by serverConnections()
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
    });
    const bouncer = new PgBouncer(port, dir, child);
    for (let i = 0; i < 100 && !bouncer.exited; i++) {
      if (await accepts(port)) return bouncer;
      await sleep(100);
    }
    const log = bouncer.log();
    await bouncer.stop();
    throw new Error(`pgbouncer did not start on port ${port}:\n${log}`);
  }

  /**
   * Every server connection PgBouncer has opened, read off its log: the local port it connected
   * from (the `client_port` the server's `pg_stat_activity` shows for it) and, once PgBouncer has
   * let it go, when and why. A closed connection's backend stays in `pg_stat_activity` until its
   * process has exited, while PgBouncer may already have opened its replacement.
   */
  serverConnections(): ServerConnection[] {
    const file = join(this.dir, 'pgbouncer.log');
    const open = new Map<string, ServerConnection>();
    const all: ServerConnection[] = [];
    const line =
      /^(\S+ \S+) UTC \[\d+\] \w+ (S-0x[0-9a-f]+): \S+ (?:new connection to server \(from [^)]*:(\d+)\)|closing because: (.*))$/;
    for (const text of existsSync(file) ? readFileSync(file, 'utf8').split('\n') : []) {
      const match = line.exec(text);
      if (!match) continue;
      const [, time, slot, fromPort, reason] = match;
      if (fromPort) {
        const connection: ServerConnection = { fromPort: Number(fromPort) };
        open.set(slot, connection);
        all.push(connection);
      } else if (open.has(slot)) {
        Object.assign(open.get(slot)!, { closedAt: Date.parse(`${time.replace(' ', 'T')}Z`), reason });
        open.delete(slot);
      }
    }
    return all;
  }

  log(): string {
    const file = join(this.dir, 'pgbouncer.log');
    return existsSync(file) ? readFileSync(file, 'utf8').slice(-4000) : '(no log)';
  }

  async stop(): Promise<void> {
    if (!this.exited) {
      const gone = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGINT');
      await Promise.race([gone, sleep(5000)]);
      if (!this.exited) this.child.kill('SIGKILL');
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
