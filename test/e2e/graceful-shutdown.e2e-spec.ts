import { connect } from 'node:net';
import { Client } from 'pg';
import {
  ChildServer,
  createApiKeyWithCli,
  freePort,
  killAllChildren,
  probe,
  serverEnv,
  sleep,
  within,
} from '../support/child-server';
import { postgresForSuite } from '../support/embedded-postgres';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import type { Json } from '../support/http';

/**
 * SIGTERM (what orchestrators send before they kill): readiness turns 503 while requests are still
 * served (load balancers take the instance out), then the process stops accepting connections,
 * lets the requests in flight finish (at most SHUTDOWN_TIMEOUT_MS), closes the pool and exits 0.
 * A real server process (src/main.ts) on PostgreSQL; the request in flight is held on a row
 * lock taken by the test, so it is still running when the signal arrives.
 */
const postgres = postgresForSuite('graceful-shutdown');

type Exit = { code: number | null; signal: NodeJS.Signals | null; at: number };

/** The exit of the child, or undefined when it has not exited within `ms`. */
const exitWithin = (server: ChildServer, ms: number): Promise<Exit | undefined> => within(server.exited, ms);

/** A request on a new connection: the error code when it is refused, else the status it got. */
const newConnection = (url: string): Promise<string> =>
  probe(url, { timeoutMs: 3000 }).then(
    (res) => `answered ${res.status}`,
    (error: NodeJS.ErrnoException) => error.code ?? error.message,
  );

postgres.describe('graceful shutdown on SIGTERM', () => {
  let database: TestDatabase;
  let token: string;
  let pg: Client;

  beforeAll(async () => {
    await postgres.beforeAll();
    database = await createTestDatabase();
    token = await createApiKeyWithCli(database.url!, 'graceful-shutdown'); // also applies the migrations
    pg = new Client({ connectionString: database.url });
    await pg.connect();
  });

  afterAll(async () => {
    await killAllChildren();
    await pg?.query('ROLLBACK').catch(() => undefined);
    await pg?.end().catch(() => undefined);
    await database?.drop();
    await postgres.afterAll();
  });

  const auth = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

  it('drains (readiness 503, requests still served), then refuses new connections, finishes the request in flight and exits 0', async () => {
    const server = await ChildServer.start(serverEnv(database.url!, await freePort()));
    const created = await fetch(`${server.baseUrl}/people?depth=0`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ city: 'Before' }),
    });
    expect(created.status).toBe(201);
    const person = ((await created.json()) as Json).data.createPerson;

    // hold the row lock, so the PATCH waits inside the server
    await pg.query('BEGIN');
    await pg.query('SELECT id FROM person WHERE id = $1 FOR UPDATE', [person.id]);
    // an ordinary keep-alive client (fetch), as most callers are
    let settled = 0;
    const patch = fetch(`${server.baseUrl}/people/${person.id}?depth=0`, {
      method: 'PATCH',
      headers: auth(),
      body: JSON.stringify({ city: 'After' }),
    }).then(
      async (res) => ({ status: res.status, body: (await res.json()) as Json }),
      (error: Error) => ({ status: 0, body: String((error as Json).cause ?? error) }),
    );
    void patch.then(() => (settled = Date.now()));
    await sleep(300);
    expect(settled).toBe(0); // the PATCH is in flight, blocked on the lock

    const signalled = Date.now();
    server.process.kill('SIGTERM');
    await sleep(300);
    // draining: readiness is 503 at once, so load balancers take the instance out, but a request
    // that still arrives is served, and its connection closed after the answer
    const ready = await probe(`${server.baseUrl}/ready`, { timeoutMs: 3000 });
    expect(ready.status).toBe(503);
    const late = await fetch(`${server.baseUrl}/people?limit=1&depth=0`, { headers: auth() });
    expect(late.status).toBe(200);
    expect(late.headers.get('connection')).toBe('close');
    // once no request has arrived for a second (probes aside), new connections are refused;
    // the process still runs for the PATCH
    let refused = '';
    const drainStarted = Date.now();
    while (Date.now() - drainStarted < 8000) {
      refused = await newConnection(`${server.baseUrl}/health`);
      if (refused === 'ECONNREFUSED' || refused === 'ECONNRESET') break;
      await sleep(100);
    }
    const refusedAfter = Date.now() - signalled;
    expect(['ECONNREFUSED', 'ECONNRESET']).toContain(refused);
    expect(refusedAfter).toBeGreaterThanOrEqual(1000); // not before the quiet second after the last request
    expect(server.alive).toBe(true);
    expect(settled).toBe(0);

    await pg.query('COMMIT');
    const committed = Date.now();
    const result = await patch;
    expect(result).toEqual({
      status: 200,
      body: { data: { updatePerson: expect.objectContaining({ id: person.id, city: 'After' }) } },
    });

    const exit = await exitWithin(server, 10_000);

    console.log(
      `graceful shutdown (in flight): /ready 503 and a request served 300 ms after SIGTERM; new connections ${refused} ${refusedAfter} ms after SIGTERM; PATCH ${result.status} ` +
        `${settled - committed} ms after the lock was released; exit ${exit ? `code ${exit.code} signal ${exit.signal}, ${exit.at - signalled} ms after SIGTERM, ${exit.at - settled} ms after the PATCH response` : 'NONE within 10 s'}`,
    );
    if (!exit || exit.code !== 0) console.log(`server output:\n${server.output}`);
    expect(exit).toEqual({ code: 0, signal: null, at: expect.any(Number) });
    const { rows } = await pg.query('SELECT city FROM person WHERE id = $1', [person.id]);
    expect(rows).toEqual([{ city: 'After' }]);
  });

  it('exits 0 within 3 s when idle, with a connection that never sent a request', async () => {
    const server = await ChildServer.start(serverEnv(database.url!, await freePort()));
    // a keep-alive connection left open by a client, as in real life
    expect((await fetch(`${server.baseUrl}/people?limit=1`, { headers: auth() })).status).toBe(200);
    // and one opened but never used (a client reconnecting after an aborted request): Node's
    // server.close() alone waits for it until headersTimeout, 60 to 90 s
    const unused = connect(Number(new URL(server.baseUrl).port), '127.0.0.1');
    unused.on('error', () => undefined);
    await new Promise((resolve) => unused.once('connect', resolve));
    const unusedClosed = new Promise((resolve) => unused.once('close', resolve));
    const signalled = Date.now();
    server.process.kill('SIGTERM');
    const exit = await exitWithin(server, 3000);

    console.log(
      `graceful shutdown (idle): exit ${exit ? `code ${exit.code} signal ${exit.signal} after ${exit.at - signalled} ms` : 'NONE within 3 s'}`,
    );
    if (!exit || exit.code !== 0) console.log(`server output:\n${server.output}`);
    expect(exit).toEqual({ code: 0, signal: null, at: expect.any(Number) });
    await unusedClosed;
  });

  it('does not wait longer than SHUTDOWN_TIMEOUT_MS for a request that never finishes', async () => {
    const server = await ChildServer.start(serverEnv(database.url!, await freePort(), { SHUTDOWN_TIMEOUT_MS: '1000' }));
    const created = await fetch(`${server.baseUrl}/people?depth=0`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify({ city: 'Stuck' }),
    });
    const person = ((await created.json()) as Json).data.createPerson;
    await pg.query('BEGIN');
    await pg.query('SELECT id FROM person WHERE id = $1 FOR UPDATE', [person.id]);
    try {
      const patch = probe(`${server.baseUrl}/people/${person.id}`, {
        method: 'PATCH',
        headers: auth(),
        body: { city: 'Never' },
        timeoutMs: 20_000,
      }).then(
        (res) => `answered ${res.status}`,
        (error: NodeJS.ErrnoException) => error.code ?? error.message,
      );
      await sleep(300);
      const signalled = Date.now();
      server.process.kill('SIGTERM');
      // the lock is never released while the server runs: the timeout (1 s) must end the wait
      const exit = await exitWithin(server, 1000 + 6000);
      const outcome = (await within(patch, 2000)) ?? 'still open';

      console.log(
        `graceful shutdown (timeout 1000 ms, request stuck): exit ${exit ? `code ${exit.code} signal ${exit.signal} after ${exit.at - signalled} ms` : 'NONE within 7 s'}; the stuck request: ${outcome}`,
      );
      expect(exit).toBeDefined();
      expect(exit!.at - signalled).toBeLessThan(7000);
      // at the timeout the request's connection is closed and its statement canceled: a clean exit
      expect(exit!.code).toBe(0);
      expect(outcome).not.toBe('still open');
    } finally {
      await pg.query('ROLLBACK');
    }
    const { rows } = await pg.query('SELECT city FROM person WHERE id = $1', [person.id]);
    expect(rows).toEqual([{ city: 'Stuck' }]); // the request cut by the timeout changed nothing
  });
});
