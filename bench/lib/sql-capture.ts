import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that records the SQL its clients send (simple queries, and
 * the statement of every Bind of the extended protocol: unnamed statements and named, prepared
 * ones alike). Used by `--sql-check` only: a proxy hop would distort the measured runs.
 * It reads the client side of the protocol and needs no TLS (the pg driver's default on a URL
 * without sslmode).
 */
export interface CapturedStatement {
  at: number;
  sql: string;
  /** The bound values as text (null for NULL); undefined when not kept (binary values, or over 1 MB: bulk writes). */
  params?: (string | null)[];
}

/** Bind messages larger than this keep no values (a bulk write binds tens of MB of JSON). */
const MAX_PARAMS_BYTES = 1024 * 1024;

export class SqlCapture {
  readonly statements: CapturedStatement[] = [];
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Starts listening on a free port of 127.0.0.1 and returns it. */
  start(): Promise<number> {
    this.server = createServer((client) => this.connection(client));
    return new Promise((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve((this.server!.address() as { port: number }).port));
    });
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The statements recorded since `since` (ms timestamp). */
  since(since: number): string[] {
    return this.statements.filter((s) => s.at >= since).map((s) => s.sql);
  }

  /** The statements recorded since `since`, with their bound values. */
  entriesSince(since: number): CapturedStatement[] {
    return this.statements.filter((s) => s.at >= since);
  }

  private connection(client: Socket): void {
    const server = createConnection({ host: this.targetHost, port: this.targetPort });
    this.sockets.add(client);
    this.sockets.add(server);
    const close = () => {
      client.destroy();
      server.destroy();
      this.sockets.delete(client);
      this.sockets.delete(server);
    };
    client.on('error', close);
    server.on('error', close);
    client.on('close', close);
    server.on('close', close);
    server.pipe(client);

    // chunks kept apart until a whole message is there (concatenating every chunk onto what came
    // before would copy a 30 MB statement of a bulk write hundreds of times)
    let pending: Buffer[] = [];
    let pendingLength = 0;
    let need = 8;
    let startup = true; // messages before the StartupMessage carry no type byte
    const named = new Map<string, string>();
    let unnamed = '';
    const cstring = (data: Buffer, from: number): [string, number] => {
      const end = data.indexOf(0, from);
      return [data.toString('utf8', from, end), end + 1];
    };
    client.on('data', (chunk: Buffer) => {
      server.write(chunk);
      pending.push(chunk);
      pendingLength += chunk.length;
      if (pendingLength < need) return;
      let buffer = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingLength);
      pending = [];
      pendingLength = 0;
      const wait = (bytes: number) => {
        need = bytes;
        pending = [buffer];
        pendingLength = buffer.length;
      };
      for (;;) {
        if (startup) {
          if (buffer.length < 8) return wait(8);
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return wait(length);
          const code = buffer.readInt32BE(4);
          // SSLRequest / GSSENCRequest are followed by another untyped message
          if (code !== 80877103 && code !== 80877104) startup = false;
          buffer = buffer.subarray(length);
          continue;
        }
        if (buffer.length < 5) return wait(5);
        const type = String.fromCharCode(buffer[0]);
        const length = buffer.readInt32BE(1);
        if (buffer.length < 1 + length) return wait(1 + length);
        const body = buffer.subarray(5, 1 + length);
        buffer = buffer.subarray(1 + length);
        if (type === 'Q') {
          this.record(cstring(body, 0)[0]);
        } else if (type === 'P') {
          const [name, next] = cstring(body, 0);
          const [text] = cstring(body, next);
          if (name) named.set(name, text);
          else unnamed = text;
        } else if (type === 'B') {
          const [, next] = cstring(body, 0); // portal
          const [statement, at] = cstring(body, next);
          this.record(
            statement ? (named.get(statement) ?? `<prepared ${statement}>`) : unnamed,
            body.length <= MAX_PARAMS_BYTES ? bindValues(body, at) : undefined,
          );
        }
      }
    });
  }

  private record(sql: string, params?: (string | null)[]): void {
    this.statements.push({ at: Date.now(), sql: sql.replace(/\s+/g, ' ').trim(), params });
  }
}

/** The parameter values of a Bind message from `at` (after the portal and statement names), as text; undefined if any is binary. */
function bindValues(body: Buffer, at: number): (string | null)[] | undefined {
  const formats: number[] = [];
  const formatCount = body.readInt16BE(at);
  at += 2;
  for (let i = 0; i < formatCount; i++, at += 2) formats.push(body.readInt16BE(at));
  const count = body.readInt16BE(at);
  at += 2;
  const values: (string | null)[] = [];
  for (let i = 0; i < count; i++) {
    const format = formats.length === 0 ? 0 : formats.length === 1 ? formats[0] : formats[i];
    const length = body.readInt32BE(at);
    at += 4;
    if (length < 0) {
      values.push(null);
      continue;
    }
    if (format !== 0) return undefined;
    values.push(body.toString('utf8', at, at + length));
    at += length;
  }
  return values;
}

/**
 * Statements that are not the request's work: the API key lookup (cached for 2 s on both sides)
 * and the change feed's notification, which an instance sends after commits (at most one per
 * 50 ms, not awaited by the request) for the open streams of every instance.
 */
export const NOISE = /"apiKey"|^SELECT pg_notify\('crm_changes', ''\)$/;

/**
 * Compares two lists of statements as multisets (parallel queries finish in any order).
 * Returns the statements only one side sent, or an empty list when they match.
 */
export function compareStatements(service: string[], baseline: string[]): string[] {
  const count = (list: string[]) => {
    const map = new Map<string, number>();
    for (const sql of list) if (!NOISE.test(sql)) map.set(sql, (map.get(sql) ?? 0) + 1);
    return map;
  };
  const a = count(service);
  const b = count(baseline);
  const differences: string[] = [];
  const serviceOnly: string[] = [];
  const baselineOnly: string[] = [];
  for (const sql of new Set([...a.keys(), ...b.keys()])) {
    const n = (a.get(sql) ?? 0) - (b.get(sql) ?? 0);
    if (n > 0) {
      differences.push(`service only (x${n}): ${sql}`);
      serviceOnly.push(sql);
    }
    if (n < 0) {
      differences.push(`baseline only (x${-n}): ${sql}`);
      baselineOnly.push(sql);
    }
  }
  // the statements are long and alike: show where each service-only one parts from its nearest baseline-only one
  for (const sql of serviceOnly) {
    const nearest = baselineOnly
      .map((other) => ({ other, at: commonPrefix(sql, other) }))
      .sort((x, y) => y.at - x.at)[0];
    if (nearest && nearest.at > 0) {
      const from = Math.max(0, nearest.at - 60);
      differences.push(
        `  first difference at character ${nearest.at}: service ...${sql.slice(from, nearest.at + 100)}... | baseline ...${nearest.other.slice(from, nearest.at + 100)}...`,
      );
    }
  }
  return differences;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
