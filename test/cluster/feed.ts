import { request } from 'node:http';
import type { Json } from '../support/http';

/** A change as the stream and the pages give it: its token and its JSON text. */
export interface FeedChange {
  id: string;
  recordId: string;
  eventName: string;
  json: string;
}

/**
 * A client of GET /changes/stream (API.md section 15) through the load balancer, as an integrator
 * would hold it: from `since`, and whenever the stream ends (a restarting instance ends its
 * streams) or fails, again at once with `Last-Event-ID` of the last change received. Keeps every
 * change, the reconnects, and the latency of each change (reception minus its `occurredAt`).
 */
export class FeedStream {
  readonly changes: FeedChange[] = [];
  /** Streams that ended (or broke) after a 200: each followed by a reconnect with Last-Event-ID. */
  reconnects = 0;
  /** Connection attempts answered otherwise than 200 (HAProxy's 503 while no instance is UP) or refused. */
  refused = 0;
  maxLatencyMs = 0;
  private lastId?: string;
  private stopped = false;
  private current?: ReturnType<typeof request>;
  private loop?: Promise<void>;

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly since: string,
  ) {}

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        const answered = await this.once().catch(() => false);
        if (!this.stopped) {
          if (answered) this.reconnects += 1;
          else this.refused += 1;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.destroy();
    await this.loop;
  }

  /** One connection, until it ends. */
  private once(): Promise<boolean> {
    const resume = this.since;
    const url = this.lastId
      ? `${this.baseUrl}/changes/stream`
      : `${this.baseUrl}/changes/stream?since=${encodeURIComponent(resume)}`;
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' };
    if (this.lastId) headers['last-event-id'] = this.lastId;
    return new Promise((resolve, reject) => {
      const req = request(url, { headers, agent: false }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          res.on('end', () => resolve(false));
          return;
        }
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            this.event(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        });
        res.on('end', () => resolve(true));
        res.on('error', () => resolve(true));
        res.on('close', () => resolve(true));
      });
      this.current = req;
      req.on('error', reject);
      req.end();
    });
  }

  /** One SSE event block: comment lines (keep-alives) are skipped. */
  private event(block: string): void {
    let id: string | undefined;
    let data: string | undefined;
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) id = line.slice(4);
      else if (line.startsWith('data: ')) data = line.slice(6);
    }
    if (id === undefined || data === undefined) return;
    const change = JSON.parse(data) as Json;
    this.maxLatencyMs = Math.max(this.maxLatencyMs, Date.now() - Date.parse(change.occurredAt));
    this.changes.push({ id, recordId: change.recordId, eventName: change.eventName, json: data });
    this.lastId = id;
  }
}

/** Every change after `since`, following `endCursor` page by page (limit 1000). */
export async function readPages(baseUrl: string, token: string, since: string): Promise<FeedChange[]> {
  const changes: FeedChange[] = [];
  let cursor = since;
  for (;;) {
    const res = await fetch(`${baseUrl}/changes?since=${encodeURIComponent(cursor)}&limit=1000`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status !== 200) throw new Error(`GET /changes answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as Json;
    for (const change of page.data.changes as Json[])
      changes.push({
        id: change.id,
        recordId: change.recordId,
        eventName: change.eventName,
        json: JSON.stringify(change),
      });
    if (!page.pageInfo.hasNextPage || page.data.changes.length === 0) return changes;
    cursor = page.pageInfo.endCursor;
  }
}
