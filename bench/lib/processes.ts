import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A server the benchmark started: its process, its log file and the last lines it printed. */
export interface Child {
  name: string;
  proc: ChildProcess;
  pid: number;
  logPath: string;
  exited: Promise<number | null>;
  exitCode?: number | null;
  tail: string[];
}

const children = new Set<Child>();

/** Starts `command` with exactly `env` (plus PATH/HOME), output to `logPath`; killed when the benchmark exits. */
export function startChild(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  logPath: string,
): Child {
  const base: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[key]) base[key] = process.env[key]!;
  const proc = spawn(command, args, { cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logPath);
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    log.write(chunk);
    tail.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (tail.length > 40) tail.splice(0, tail.length - 40);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const child: Child = { name, proc, pid: proc.pid ?? -1, logPath, tail, exited: Promise.resolve(null) };
  child.exited = new Promise((resolve) =>
    proc.on('exit', (code, signal) => {
      child.exitCode = code ?? (signal ? -1 : null);
      children.delete(child);
      log.end();
      resolve(code);
    }),
  );
  proc.on('error', (error) => keep(Buffer.from(`spawn error: ${error.message}\n`)));
  children.add(child);
  return child;
}

/** Resolves once `url` answers 200; rejects when the child exits first or after `timeoutMs`. */
export async function waitReady(child: Child, url: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited)
      throw new Error(
        `${child.name} exited (code ${child.exitCode}) before it was ready:\n  ${child.tail.slice(-15).join('\n  ')}`,
      );
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${child.name} was not ready after ${timeoutMs / 1000} s:\n  ${child.tail.slice(-15).join('\n  ')}`);
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child: Child, graceMs = 5000): Promise<void> {
  if (!children.has(child)) return;
  child.proc.kill('SIGTERM');
  const timer = setTimeout(() => child.proc.kill('SIGKILL'), graceMs);
  await child.exited;
  clearTimeout(timer);
}

export async function stopAll(graceMs?: number): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c, graceMs)));
}

/** Last resort on exit: every child still running gets SIGKILL (synchronous). */
export function killAllNow(): void {
  for (const child of children) {
    try {
      child.proc.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process in MB (VmRSS of /proc/<pid>/status), or undefined when unreadable. */
export function rssMb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `intervalMs` until stopped; returns the maximum in MB. */
export function sampleRss(pid: number, intervalMs = 100): { stop: () => number | undefined } {
  let max: number | undefined = rssMb(pid);
  const timer = setInterval(() => {
    const value = rssMb(pid);
    if (value !== undefined && (max === undefined || value > max)) max = value;
  }, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      const value = rssMb(pid);
      if (value !== undefined && (max === undefined || value > max)) max = value;
      return max;
    },
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; undefined when unreadable. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    return statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** User + system CPU seconds of a /proc/<pid>/stat line. */
function statCpuSeconds(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // after "pid (comm) ": state is field 3, utime field 14 and stime field 15 (1-based, man 5 proc)
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** USER_HZ: 100 on every Linux build that matters here. */
const CLOCK_TICKS = 100;

/**
 * CPU seconds used so far by each running process named `postgres` (the server, its backends and
 * background workers), by pid; undefined when there is none (a database on another machine, or
 * /proc unreadable). Diff two snapshots with `cpuSince`.
 */
export function postgresCpu(): Map<number, number> | undefined {
  const found = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
      found.set(Number(entry), statCpuSeconds(stat));
    } catch {
      // the process ended meanwhile
    }
  }
  return found.size ? found : undefined;
}

/**
 * CPU seconds the postgres processes used between two snapshots (processes started meanwhile count
 * from 0; the CPU of a process that ended meanwhile is lost, so this can only undercount).
 */
export function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += Math.max(0, seconds - (before.get(pid) ?? 0));
  return total;
}
