import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, sleep } from '../support/child-server';

/** deploy/haproxy.cfg, the file docker-compose.yml mounts: only the addresses come from here. */
export const HAPROXY_CFG = join(ROOT, 'deploy', 'haproxy.cfg');

/** Debian's haproxy (`apt-get install -y haproxy`), or HAPROXY_BIN. */
export function haproxyBinary(): string {
  const bin = process.env.HAPROXY_BIN ?? 'haproxy';
  try {
    execFileSync(bin, ['-v'], { stdio: 'ignore' });
    return bin;
  } catch {
    throw new Error(`no haproxy binary (${bin}): apt-get install -y haproxy, or set HAPROXY_BIN`);
  }
}

/** HAProxy in the foreground on deploy/haproxy.cfg; its log lines (errors and retries only) are kept. */
export class Haproxy {
  readonly lines: string[] = [];
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    let partial = '';
    const collect = (chunk: Buffer) => {
      const text = partial + chunk.toString();
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) if (this.lines.length < 10_000) this.lines.push(line);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/rest`;
  }

  static async start(port: number, servers: number[]): Promise<Haproxy> {
    const bin = haproxyBinary();
    const env: Record<string, string> = { ...process.env, LB_BIND: `127.0.0.1:${port}` } as Record<string, string>;
    servers.forEach((serverPort, i) => (env[`APP${i + 1}_ADDR`] = `127.0.0.1:${serverPort}`));
    execFileSync(bin, ['-c', '-q', '-f', HAPROXY_CFG], { env, stdio: 'pipe' }); // the configuration is valid
    const haproxy = new Haproxy(
      spawn(bin, ['-db', '-f', HAPROXY_CFG], { env, stdio: ['ignore', 'pipe', 'pipe'] }),
      port,
    );
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`${haproxy.baseUrl}/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return haproxy;
      await sleep(100);
    }
    throw new Error(`haproxy did not answer on ${port}:\n${haproxy.lines.join('\n')}`);
  }

  /** Lines about servers going down or up ("Server crm/app2 is DOWN ..."). */
  get serverEvents(): string[] {
    return this.lines.filter((l) => /Server crm\/app\d is (UP|DOWN)/.test(l));
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
