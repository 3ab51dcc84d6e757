import { ChangeStreams } from '../../src/core/changes/change-streams';
import { positionOf } from '../../src/core/changes/change-tokens';
import { SseClient } from '../support/sse-client';
import { startTestApp, TestApp } from '../support/test-app';

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
