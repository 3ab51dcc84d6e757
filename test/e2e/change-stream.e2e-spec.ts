import { ChangeStreams } from '../../src/core/changes/change-streams';
import { positionOf } from '../../src/core/changes/change-tokens';
import type { Json } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** A Server-Sent Events client over fetch: the events and comment lines received, as they come. */
class SseClient {
  readonly events: { id: string; event: string; data: Json; at: number }[] = [];
  readonly comments: string[] = [];
  status = 0;
  ended = false;
  private readonly abort = new AbortController();
  private buffer = '';

  private reader?: ReadableStreamDefaultReader<Uint8Array>;

  /** `paused`: nothing is read until `resume()` (the server meets a client that does not read). */
  static async open(url: string, headers: Record<string, string>, paused = false): Promise<SseClient> {
    const client = new SseClient();
    const res = await fetch(url, { headers, signal: client.abort.signal });
    client.status = res.status;
    client.reader = res.body?.getReader();
    if (!paused) client.resume();
    return client;
  }

  resume(): void {
    if (this.reader) void this.pump(this.reader);
  }

  private async pump(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = this.buffer.indexOf('\n\n')) >= 0) {
          const block = this.buffer.slice(0, end);
          this.buffer = this.buffer.slice(end + 2);
          if (block.startsWith(':')) this.comments.push(block);
          else {
            const fields = Object.fromEntries(
              block.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
            );
            this.events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data), at: Date.now() });
          }
        }
      }
    } catch {
      /* aborted */
    }
    this.ended = true;
  }

  async until(check: () => boolean, ms = 5000): Promise<void> {
    const started = Date.now();
    while (!check()) {
      if (Date.now() - started > ms) throw new Error('timed out waiting on the stream');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  close(): void {
    this.abort.abort();
  }
}

/** GET /changes/stream (API.md section 15): latency, Last-Event-ID, keep-alive comments, shutdown. */
describe('change stream: GET /changes/stream', () => {
  let t: TestApp;
  const auth = () => ({ authorization: `Bearer ${t.token}` });
  beforeAll(async () => {
    t = await startTestApp({ CHANGES_KEEPALIVE_MS: '300' });
  });
  afterAll(async () => {
    // on PGlite one connection stayed open until the tests' 120 s keep-alive timeout (not a
    // stream: those end above); every test is done, so none is needed any more
    t?.app.getHttpServer().closeAllConnections();
    await t?.close();
  });

  it('sends each change within 1 s of its commit, as id / event: change / data', async () => {
    const since = (await t.http.get('/changes/head')).body.data.token;
    const stream = await SseClient.open(`${t.baseUrl}/changes/stream?since=${since}`, auth());
    expect(stream.status).toBe(200);
    for (const name of ['Live one', 'Live two', 'Live three']) {
      const res = await t.http.post('/companies?depth=0', { name });
      const committed = Date.now();
      await stream.until(() => stream.events.some((e) => e.data.record.name === name), 2000);
      const event = stream.events.find((e) => e.data.record.name === name)!;
      expect(event.at - committed).toBeLessThan(1000);
      expect(event).toMatchObject({ event: 'change', id: event.data.id });
      expect(event.data).toMatchObject({ eventName: 'company.created', recordId: res.body.data.createCompany.id });
    }
    stream.close();
  });

  it('resumes after the Last-Event-ID, with neither a loss nor a repeat; filters by collections', async () => {
    const since = (await t.http.get('/changes/head')).body.data.token;
    const first = await SseClient.open(`${t.baseUrl}/changes/stream?since=${since}&collections=companies`, auth());
    await t.http.post('/people?depth=0', { name: { firstName: 'Not a company' } });
    await t.http.post('/companies?depth=0', { name: 'Before' });
    await first.until(() => first.events.length === 1);
    first.close();
    const last = first.events[0].id;
    for (const name of ['After 1', 'After 2']) await t.http.post('/companies?depth=0', { name });
    const second = await SseClient.open(`${t.baseUrl}/changes/stream?since=${since}&collections=companies`, {
      ...auth(),
      'last-event-id': last,
    });
    await second.until(() => second.events.length >= 2);
    await t.http.post('/companies?depth=0', { name: 'After 3' });
    await second.until(() => second.events.length >= 3);
    expect(second.events.map((e) => e.data.record.name)).toEqual(['After 1', 'After 2', 'After 3']);
    expect(first.events.map((e) => e.data.record.name)).toEqual(['Before']);
    second.close();
  });

  it('holds back a client that does not read (no more is read for it), then sends it everything in order once it reads', async () => {
    const since = (await t.http.get('/changes/head')).body.data.token;
    const stream = await SseClient.open(
      `${t.baseUrl}/changes/stream?since=${since}&collections=companies`,
      auth(),
      true,
    );
    expect(stream.status).toBe(200);
    // ~25 MB of changes: more than the sockets' buffers and a page of 1,000 changes together
    const filler = 'x'.repeat(3000);
    const names: string[] = [];
    for (let b = 0; b < 40; b++) {
      const batch = Array.from({ length: 200 }, (_, i) => ({ name: `Slow ${b}-${i} ${filler}` }));
      expect((await t.http.post('/batch/companies?depth=0', batch)).status).toBe(201);
      names.push(...batch.map((c) => c.name));
    }
    const head = positionOf((await t.http.get('/changes/head')).body.data.token)!;
    await new Promise((resolve) => setTimeout(resolve, 2500)); // the streams' reads (notifications, every second)
    // the server stopped reading the feed for the stream it could not write to (else it would hold it all)
    const sinks = [...(t.app.get(ChangeStreams) as unknown as { sinks: Set<{ since: number }> }).sinks];
    expect(Math.min(...sinks.map((sink) => sink.since))).toBeLessThan(head);
    stream.resume();
    await stream.until(() => stream.events.length >= names.length, 120_000);
    expect(stream.events.map((e) => e.data.record.name)).toEqual(names);
    stream.close();
  }, 180_000);

  it('sends a comment line when nothing happens, and ends the streams at shutdown', async () => {
    const since = (await t.http.get('/changes/head')).body.data.token;
    const stream = await SseClient.open(`${t.baseUrl}/changes/stream?since=${since}`, auth());
    await stream.until(() => stream.comments.some((c) => c.includes('keep-alive')), 2000);
    // what app.close() (graceful shutdown) runs first: the streams end, clients reconnect elsewhere
    await t.app.get(ChangeStreams).beforeApplicationShutdown();
    await stream.until(() => stream.ended, 5000);
  });
});
