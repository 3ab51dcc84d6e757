import { ChildProcess, spawn } from 'node:child_process';

/** A server started from a TypeScript file of the benchmarks: its process, port and (for the service) an API key. */
export interface TsServer {
  proc: ChildProcess;
  port: number;
  token?: string;
}

/**
 * Runs `script mode` under ts-node (transpile only) with `env` and PORT, and resolves once it
 * prints `READY <port> [token]` on stdout (an exit before that rejects with the end of its output).
 */
export function startTsServer(
  script: string,
  mode: string,
  env: Record<string, string>,
  port: number,
): Promise<TsServer> {
  const proc = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', script, mode], {
    env: { ...process.env, ...env, PORT: String(port), TS_NODE_TRANSPILE_ONLY: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\d+)(?: (\S+))?/.exec(out);
      if (m) resolve({ proc, port: Number(m[1]), token: m[2] });
    });
    proc.on('exit', (code) => reject(new Error(`${script} ${mode} exited with ${code}: ${out.slice(-2000)}`)));
  });
}
