/**
 * Files through the service (contract 0.3 section 16): a multipart upload of `--size-mib`
 * (default 1 GiB) to POST /rest/attachments and its download from GET /rest/attachments/:id/content,
 * against a bare node:http server piping the same bytes to the same storage (DiskFileStorage):
 *
 *   DATABASE_URL=postgres://... npx ts-node --transpile-only bench/file-transfer-memory.ts [--size-mib 1024]
 *
 * Service and client run in this process (PostgreSQL in its own), so the RSS growth measured is
 * an upper bound of the server's own. Prints the RSS growth of each transfer and the throughput
 * beside the bare server; exits 1 when a growth reaches `--limit-mib` (64), the throughput is
 * below 0.8x the bare server's, or the bytes read back differ.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createApp } from '../src/app.factory';
import { createApiKey } from '../src/collections/api-keys/first-api-key';
import { DiskFileStorage, newObjectKey } from '../src/core/files';
import { digestOf, generatedBytes } from '../test/support/generated-bytes';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;
const { values } = parseArgs({
  options: { 'size-mib': { type: 'string', default: '1024' }, 'limit-mib': { type: 'string', default: '64' } },
});
const size = Number(values['size-mib']) * MiB;
const limit = Number(values['limit-mib']) * MiB;
const mib = (bytes: number) => (bytes / MiB).toFixed(1);

async function sampled<T>(work: () => Promise<T>): Promise<{ result: T; peak: number; seconds: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const started = process.hrtime.bigint();
  try {
    const result = await work();
    return {
      result,
      peak: Math.max(peak, process.memoryUsage.rss()),
      seconds: Number(process.hrtime.bigint() - started) / 1e9,
    };
  } finally {
    clearInterval(timer);
  }
}

/** POSTs `bytes` of generated content to `url`, as multipart (`fields`) or raw; the answer's body. */
async function post(url: string, headers: Record<string, string>, bytes: number, multipart?: Record<string, string>) {
  const boundary = 'benchboundary7d3f';
  const head = multipart
    ? Object.entries(multipart)
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`
    : '';
  const tail = multipart ? `\r\n--${boundary}--\r\n` : '';
  const req = request(url, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': multipart ? `multipart/form-data; boundary=${boundary}` : 'application/octet-stream',
      'content-length': String(Buffer.byteLength(head) + bytes + Buffer.byteLength(tail)),
    },
  });
  const answered = once(req, 'response') as Promise<[IncomingMessage]>;
  req.write(head);
  await pipeline(generatedBytes(bytes, 2), req, { end: false });
  req.end(tail);
  const [res] = await answered;
  let text = '';
  for await (const chunk of res) text += chunk;
  if (res.statusCode! >= 300) throw new Error(`${url}: ${res.statusCode} ${text}`);
  return text;
}

async function get(url: string, headers: Record<string, string> = {}) {
  const req = request(url, { headers });
  req.end();
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  return digestOf(res);
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'crm-transfer-bench-'));
  const { app } = await createApp({
    env: {
      ...process.env,
      DATA_DIR: root,
      FILE_MAX_BYTES: String(size + MiB),
      LOG_LEVEL: 'warn',
      BOOTSTRAP_API_KEY: 'false',
    },
  });
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const { token } = await createApiKey(app, 'bench', new Date(Date.now() + 3600_000));
  const auth = { authorization: `Bearer ${token}` };
  const member = JSON.parse(
    await new Promise<string>((resolve, reject) => {
      const req = request(`${base}/rest/workspaceMembers?depth=0`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
      });
      req.on('response', async (res) => {
        let text = '';
        for await (const chunk of res) text += chunk;
        resolve(text);
      });
      req.on('error', reject);
      req.end(
        JSON.stringify({
          name: { firstName: 'Bench', lastName: 'Mark' },
          userEmail: 'bench@example.com',
          userId: '6f0c1f0e-4b8e-4e0a-9a3c-2b1d0e9f8a7c',
        }),
      );
    }),
  ).data.createWorkspaceMember.id as string;

  // the bare server: the same storage, node:http piping straight to it
  const bareStorage = new DiskFileStorage(join(root, 'bare'));
  const bare = createServer((req, res) => {
    if (req.method === 'POST') {
      const key = newObjectKey();
      bareStorage.put(key, req).then(
        () => res.end(key),
        () => res.writeHead(500).end(),
      );
    } else {
      bareStorage.get(req.url!.slice(1)).then((stream) => pipeline(stream, res).catch(() => undefined));
    }
  });
  bare.listen(0, '127.0.0.1');
  await once(bare, 'listening');
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const expected = await digestOf(generatedBytes(size, 2));

  // warm-up: modules loaded, connections open
  const small = 4 * MiB;
  const warm = JSON.parse(await post(`${base}/rest/attachments?depth=0`, auth, small, { authorId: member }));
  await get(`${base}/rest/attachments/${warm.data.createAttachment.id}/content`, auth);
  await get(`${bareUrl}/${await post(bareUrl, {}, small)}`);
  gc();
  const baseline = process.memoryUsage.rss();

  const up = await sampled(() => post(`${base}/rest/attachments?depth=0`, auth, size, { authorId: member }));
  const id = JSON.parse(up.result).data.createAttachment.id as string;
  gc();
  const down = await sampled(() => get(`${base}/rest/attachments/${id}/content`, auth));
  gc();
  const bareUp = await sampled(() => post(bareUrl, {}, size));
  const bareDown = await sampled(() => get(`${bareUrl}/${bareUp.result}`));

  const same = down.result.sha256 === expected.sha256 && bareDown.result.sha256 === expected.sha256;
  const growth = Math.max(up.peak, down.peak) - baseline;
  const rate = (seconds: number) => size / MiB / seconds;
  const upRatio = rate(up.seconds) / rate(bareUp.seconds);
  const downRatio = rate(down.seconds) / rate(bareDown.seconds);
  process.stdout.write(
    `${mib(size)} MiB through the service: baseline RSS ${mib(baseline)} MiB; upload peak +${mib(up.peak - baseline)} MiB, ` +
      `${rate(up.seconds).toFixed(0)} MiB/s (bare ${rate(bareUp.seconds).toFixed(0)} MiB/s, ${upRatio.toFixed(2)}x); ` +
      `download peak +${mib(down.peak - baseline)} MiB, ${rate(down.seconds).toFixed(0)} MiB/s ` +
      `(bare ${rate(bareDown.seconds).toFixed(0)} MiB/s, ${downRatio.toFixed(2)}x); bytes ${same ? 'identical' : 'DIFFERENT'}; ` +
      `growth ${mib(growth)} MiB ${growth < limit ? '<' : '>='} ${mib(limit)} MiB\n`,
  );
  bare.close();
  await app.close();
  rmSync(root, { recursive: true, force: true });
  process.exit(same && growth < limit && upRatio >= 0.8 && downRatio >= 0.8 ? 0 : 1);
}

void main();
