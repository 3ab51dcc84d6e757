import { IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { ExpressJsonAdapter } from './express-json-adapter';

type Res = ServerResponse & {
  req: IncomingMessage;
  status(code: number): unknown;
  setHeader(name: string, value: string): unknown;
};

/** An adapter serving a few routes through `reply`, as Nest's router would, on a random port. */
async function serve(routes: Record<string, (adapter: ExpressJsonAdapter, res: Res, req: IncomingMessage) => unknown>) {
  const adapter = new ExpressJsonAdapter();
  adapter.initHttpServer({});
  for (const [path, handler] of Object.entries(routes)) {
    adapter.get(path, (req: IncomingMessage, res: Res) => handler(adapter, res, req));
  }
  const server = adapter.getHttpServer() as Server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const call = (path: string, method = 'GET', headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
      (resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end();
      },
    );
  return { adapter, call, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('ExpressJsonAdapter', () => {
  it("builds requests and responses with Express's prototypes, so Express never changes them", async () => {
    const seen: { request: boolean; response: boolean; node: boolean; express: boolean }[] = [];
    const app = await serve({
      '/proto': (adapter, res, req) => {
        const express = adapter.getInstance() as { request: object; response: object };
        seen.push({
          request: Object.getPrototypeOf(req) === express.request,
          response: Object.getPrototypeOf(res) === express.response,
          node: req instanceof IncomingMessage && res instanceof ServerResponse,
          express:
            typeof (res as unknown as { json: unknown }).json === 'function' &&
            typeof (req as unknown as { get: unknown }).get === 'function',
        });
        return adapter.reply(res, { ok: true }, 200);
      },
    });
    try {
      await app.call('/proto');
      await app.call('/proto');
      expect(seen).toEqual([
        { request: true, response: true, node: true, express: true },
        { request: true, response: true, node: true, express: true },
      ]);
    } finally {
      await app.close();
    }
  });

  it('writes JSON with its length and type; HEAD without the body', async () => {
    const body = { data: { person: { id: 'x', name: 'Zoë', notes: 'n'.repeat(2000) } } };
    const app = await serve({ '/json': (adapter, res) => adapter.reply(res, body, 201) });
    try {
      const res = await app.call('/json');
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(body)));
      expect(JSON.parse(res.body)).toEqual(body);
      const head = await app.call('/json', 'HEAD');
      expect(head.status).toBe(201);
      expect(head.headers['content-length']).toBe(res.headers['content-length']);
      expect(head.body).toBe('');
    } finally {
      await app.close();
    }
  });

  it('leaves conditional requests, empty statuses, other content types and strings to Express', async () => {
    const app = await serve({
      '/tagged': (adapter, res) => {
        res.setHeader('ETag', '"v1"');
        return adapter.reply(res, { v: 1 }, 200);
      },
      '/empty': (adapter, res) => adapter.reply(res, { ignored: true }, 204),
      '/typed': (adapter, res) => {
        res.setHeader('Content-Type', 'application/problem+json');
        return adapter.reply(res, { title: 'x' }, 200);
      },
      '/text': (adapter, res) => adapter.reply(res, 'plain', 200),
    });
    try {
      expect((await app.call('/tagged', 'GET', { 'if-none-match': '"v1"' })).status).toBe(304);
      expect((await app.call('/tagged', 'GET', { 'if-none-match': '"v0"' })).body).toBe('{"v":1}');
      const empty = await app.call('/empty');
      expect([empty.status, empty.body, empty.headers['content-type']]).toEqual([204, '', undefined]);
      const typed = await app.call('/typed');
      expect([typed.status, typed.headers['content-type'], typed.body]).toEqual([
        200,
        'application/problem+json; charset=utf-8',
        '{"title":"x"}',
      ]);
      const text = await app.call('/text');
      expect([text.headers['content-type'], text.body]).toEqual(['text/html; charset=utf-8', 'plain']);
    } finally {
      await app.close();
    }
  });
});
