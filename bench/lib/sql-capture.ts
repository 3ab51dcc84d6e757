import { createConnection, createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that records the SQL its clients send (simple queries, and
 * the statement of every Bind of the extended protocol: unnamed statements and named, prepared
 * ones alike). Used by `--sql-check` only: a proxy hop would distort the measured runs.
 * It reads the client side of the protocol and needs no TLS (the pg driver's default on a URL
 * without sslmode).
 */
export class SqlCapture {
  readonly statements: { at: number; sql: string }[] = [];
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
          const [statement] = cstring(body, next);
          this.record(statement ? (named.get(statement) ?? `<prepared ${statement}>`) : unnamed);
        }
      }
    });
  }

  private record(sql: string): void {
    this.statements.push({ at: Date.now(), sql: sql.replace(/\s+/g, ' ').trim() });
  }
}

/** Statements that are not the request's work: the API key lookup (cached for 2 s on both sides). */
const NOISE = /"apiKey"/;

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
  for (const sql of new Set([...a.keys(), ...b.keys()])) {
    const n = (a.get(sql) ?? 0) - (b.get(sql) ?? 0);
    if (n > 0) differences.push(`service only (x${n}): ${sql}`);
    if (n < 0) differences.push(`baseline only (x${-n}): ${sql}`);
  }
  return differences;
}
