import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';

/**
 * Keep-alive connections to the load balancer, as a client pool would hold (node:http costs less
 * CPU than fetch). An idle connection is closed by the client after 5 s, before HAProxy's `timeout
 * http-keep-alive 10s` closes it: otherwise a request sent on a connection just as HAProxy closes it
 * fails with ECONNRESET without ever reaching HAProxy (seen once in CI, 10.8 s after the SIGKILL
 * burst had opened extra connections that then sat idle). Sockets in use keep the 30 s of `send`.
 */
const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 5_000 });

/** One HTTP request through `agent` (a Buffer body is sent as it is); rejects on a socket error or after 30 s. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; text: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    const req = request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, text: bytes.toString('utf8'), bytes });
      });
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout after 30 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** One request of the load: what it was, when, how it ended. */
export interface Outcome {
  op: 'get' | 'list' | 'create' | 'patch' | 'upload' | 'download';
  startedAt: number;
  endedAt: number;
  /** HTTP status, or 0 when the request failed without an answer. */
  status: number;
  error?: string;
}

/** A record the load created, with the values it was acknowledged with. */
export interface Written {
  id: string;
  name: string;
  employees: number;
  /** City of the last acknowledged PATCH; `uncertain` when a later PATCH got no answer. */
  city: string | null;
  uncertain: boolean;
  busy: boolean;
}

/** A file the load uploaded (multipart POST /attachments), with its bytes. */
export interface Uploaded {
  id: string;
  bytes: Buffer;
}

const EXPECTED: Record<Outcome['op'], number> = {
  get: 200,
  list: 200,
  create: 201,
  patch: 200,
  upload: 201,
  download: 200,
};

/** A multipart/form-data body: the text part `authorId` (attachments require one), then `file` holding `bytes`. */
export function multipart(bytes: Buffer, name: string, authorId: string): { body: Buffer; contentType: string } {
  const boundary = `----cluster${randomUUID().replace(/-/g, '')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="authorId"\r\n\r\n${authorId}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Random content of 1 to 64 KiB (random bytes: a changed byte anywhere is seen). */
export const randomFile = (): Buffer => randomBytes(1024 + Math.floor(Math.random() * 63 * 1024));

/**
 * A steady open-loop load through the load balancer: `rate` requests per second (58 % get one,
 * 15 % list, 15 % create with an Idempotency-Key, 10 % patch, 1 % file upload (multipart POST
 * /attachments, 1-64 KiB), 1 % download of an uploaded file, which must be byte-identical; a
 * different content is a failure with status -1), at most `maxInFlight` at once;
 * bounded in time (stop()) and in count (`maxRequests`). Loopback only.
 */
export class Load {
  readonly outcomes: Outcome[] = [];
  readonly written: Written[] = [];
  readonly uploaded: Uploaded[] = [];
  inFlight = 0;
  /** Requests not sent because `maxInFlight` were already waiting (the server fell behind). */
  deferred = 0;
  private timer?: NodeJS.Timeout;
  private started = 0;
  private sent = 0;
  private readonly pending = new Set<Promise<void>>();
  private seq = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly rate: number,
    private readonly maxRequests: number,
    /** The workspace member the uploads name as their author. */
    private readonly authorId: string,
    private readonly maxInFlight = 128,
  ) {}

  start(): void {
    this.started = Date.now();
    this.timer = setInterval(() => {
      const due = Math.floor(((Date.now() - this.started) / 1000) * this.rate);
      while (this.sent < due && this.sent < this.maxRequests) {
        this.sent += 1;
        if (this.inFlight >= this.maxInFlight) {
          this.deferred += 1;
          continue;
        }
        const p = this.one().finally(() => this.pending.delete(p));
        this.pending.add(p);
      }
    }, 10);
  }

  /** Stops sending and waits for the requests in flight. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.pending]);
    agent.destroy();
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', ...extra };
  }

  private pick(): Written | undefined {
    if (this.written.length === 0) return undefined;
    return this.written[Math.floor(Math.random() * this.written.length)];
  }

  private async one(): Promise<void> {
    const n = this.seq++;
    const roll = Math.random();
    const target = this.pick();
    let op: Outcome['op'] =
      roll < 0.58
        ? 'get'
        : roll < 0.73
          ? 'list'
          : roll < 0.88
            ? 'create'
            : roll < 0.98
              ? 'patch'
              : roll < 0.99
                ? 'upload'
                : 'download';
    if (op === 'download' && this.uploaded.length === 0) op = 'upload';
    if (!target && op !== 'upload') op = 'create';
    if (op === 'patch' && target!.busy) op = 'create';
    this.inFlight += 1;
    const outcome: Outcome = { op, startedAt: Date.now(), endedAt: 0, status: 0 };
    try {
      if (op === 'upload' || op === 'download') {
        outcome.status = await this.file(op);
      } else if (op === 'get') {
        outcome.status = (await send(`${this.baseUrl}/companies/${target!.id}?depth=0`, 'GET', this.headers())).status;
      } else if (op === 'list') {
        const filter = encodeURIComponent(`employees[gte]:${Math.floor(Math.random() * 1000)}`);
        outcome.status = (
          await send(
            `${this.baseUrl}/companies?limit=10&depth=0&filter=${filter}&order_by=employees[AscNullsLast]`,
            'GET',
            this.headers(),
          )
        ).status;
      } else if (op === 'create') {
        const body = { name: `cluster-${n}-${randomUUID().slice(0, 8)}`, employees: Math.floor(Math.random() * 1000) };
        const res = await send(
          `${this.baseUrl}/companies?depth=0`,
          'POST',
          this.headers({ 'idempotency-key': randomUUID() }),
          body,
        );
        outcome.status = res.status;
        const json = JSON.parse(res.text) as {
          data?: { createCompany?: { id: string; name: string; employees: number } };
        };
        const created = json.data?.createCompany;
        if (res.status === 201 && created)
          this.written.push({
            id: created.id,
            name: created.name,
            employees: created.employees,
            city: null,
            uncertain: false,
            busy: false,
          });
      } else {
        const record = target!;
        record.busy = true; // one PATCH at a time per record: the last acknowledged value is the stored one
        const city = `city-${n}`;
        try {
          const res = await send(`${this.baseUrl}/companies/${record.id}?depth=0`, 'PATCH', this.headers(), {
            address: { addressCity: city },
          });
          outcome.status = res.status;
          if (res.status === 200) record.city = city;
          else record.uncertain = true;
        } catch (error) {
          record.uncertain = true;
          throw error;
        } finally {
          record.busy = false;
        }
      }
    } catch (error) {
      outcome.status = 0;
      outcome.error = (error as NodeJS.ErrnoException).code ?? String(error);
    } finally {
      this.inFlight -= 1;
      outcome.endedAt = Date.now();
      this.outcomes.push(outcome);
    }
  }

  /** An upload (kept with its bytes when acknowledged), or a download compared byte for byte: -1 when different. */
  private async file(op: 'upload' | 'download'): Promise<number> {
    if (op === 'download') {
      const file = this.uploaded[Math.floor(Math.random() * this.uploaded.length)];
      const res = await send(`${this.baseUrl}/attachments/${file.id}/content`, 'GET', this.headers());
      return res.status === 200 && !res.bytes.equals(file.bytes) ? -1 : res.status;
    }
    const bytes = randomFile();
    const { body, contentType } = multipart(bytes, `load-${this.seq}.bin`, this.authorId);
    const res = await send(
      `${this.baseUrl}/attachments?depth=0`,
      'POST',
      this.headers({ 'content-type': contentType }),
      body,
    );
    if (res.status !== 201) return res.status; // a 503 of HAProxy is HTML, not JSON
    const id = (JSON.parse(res.text) as { data?: { createAttachment?: { id: string } } }).data?.createAttachment?.id;
    if (id) this.uploaded.push({ id, bytes });
    return res.status;
  }
}

/** Whether an outcome is a failure: no answer, or not the status its operation answers. */
export const failed = (o: Outcome): boolean => o.status !== EXPECTED[o.op];

/** The p-th percentile (0..100) of the durations of `outcomes`, in ms. */
export function percentile(outcomes: Outcome[], p: number): number {
  const sorted = outcomes.map((o) => o.endedAt - o.startedAt).sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
