/**
 * Files for attachments (API.md section 16): multipart upload, download (ranges, 304), signed
 * links, limits and bad input (nothing left behind), lifecycle (hard delete removes the stored
 * file after commit, soft delete keeps it), access (section 14). Disk storage here; the S3
 * round trip and lifecycle in files-s3.e2e-spec.ts.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileCleaner } from '../../src/collections/attachments/file-cleaner';
import { DiskFileStorage, FileStorage } from '../../src/core/files';
import { sleep } from '../support/child-server';
import { createRecord } from '../support/fixtures';
import { Json } from '../support/http';
import { keyWithRole } from '../support/keys';
import { startTestApp, TestApp } from '../support/test-app';

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(300, 7),
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const ELF = Buffer.concat([Buffer.from('7f454c46020101000000000000000000', 'hex'), Buffer.alloc(5000, 1)]);
const TEXT = Buffer.from('plain words, no magic number here\n'.repeat(300));
const LIMIT = 256 * 1024;

let t: TestApp;
let dataDir: string | undefined;
let authorId: string;

beforeAll(async () => {
  dataDir = process.env.TEST_DATABASE_URL ? mkdtempSync(join(tmpdir(), 'crm-files-e2e-')) : undefined;
  t = await startTestApp({
    ...(dataDir ? { DATA_DIR: dataDir } : {}),
    FILE_MAX_BYTES: String(LIMIT),
    FILE_LINK_TTL_SECONDS: '2',
    FILE_CLEANUP_INTERVAL_MS: '50',
    FILE_SWEEP_INTERVAL_MS: '86400000',
    FILE_ORPHAN_AGE_MS: '0',
  });
  authorId = (await createRecord(t.http, 'workspaceMembers')).id as string;
});
afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const storage = () => t.app.get(FileStorage) as DiskFileStorage;

/** Every file under the storage's folder, temporary ones included (read again if a file vanished during the walk). */
function storedFiles(): string[] {
  for (let attempt = 0; ; attempt++) {
    try {
      if (!existsSync(storage().root)) return [];
      return readdirSync(storage().root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name));
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

async function attachmentCount(): Promise<number> {
  const [row] = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM "attachment"');
  return Number(row.n);
}

/** What is stored: attachment rows and files (temporary ones included). */
async function state() {
  const names = storedFiles();
  return { records: await attachmentCount(), files: names.length, names };
}

type Part = { name: string; value: string } | { name: string; file: Buffer; filename: string; type?: string };

async function upload(parts: Part[], token = t.token, headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const part of parts) {
    if ('file' in part)
      form.append(part.name, new Blob([part.file], { type: part.type ?? 'text/plain' }), part.filename);
    else form.append(part.name, part.value);
  }
  const res = await fetch(`${t.baseUrl}/attachments?depth=0`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...headers },
    body: form,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, Json> };
}

const fileParts = (file: Buffer, filename = 'a.bin'): Part[] => [
  { name: 'authorId', value: authorId },
  { name: 'file', file, filename },
];

async function download(id: string, headers: Record<string, string> = {}, token: string | null = t.token) {
  const res = await fetch(`${t.baseUrl}/attachments/${id}/content`, {
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const sha256 = (bytes: Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

async function until(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await sleep(25);
  }
}

/**
 * Waits until nothing more is stored than `before`: the same records, and no file that was not
 * there (a temporary file of an earlier request may go meanwhile); else fails showing what was added.
 */
async function backTo(before: { records: number; names: string[] }): Promise<void> {
  const now = async () => {
    const { records, names } = await state();
    return { records, added: names.filter((name) => !before.names.includes(name)) };
  };
  await until(async () => JSON.stringify(await now()) === JSON.stringify({ records: before.records, added: [] })).catch(
    async () => expect(await now()).toEqual({ records: before.records, added: [] }),
  );
}

describe('upload and download', () => {
  let png: Record<string, Json>;

  it('stores a PNG declared as text/plain with its type from the bytes, size, checksum and a key of the service', async () => {
    const res = await upload(fileParts(PNG, 'résumé 日本.png'));
    expect(res.status).toBe(201);
    png = res.body.data.createAttachment;
    expect(png).toMatchObject({
      name: 'résumé 日本.png',
      size: PNG.length,
      mimeType: 'image/png',
      checksum: sha256(PNG),
      authorId,
    });
    expect(png.fullPath).toBe(`${png.id.slice(0, 2)}/${png.id.slice(2, 4)}/${png.id}`);
    const events = await t.db.query('SELECT "name" FROM "auditLog" WHERE "recordId" = $1', [png.id]);
    expect(events.map((e) => e.name)).toEqual(['attachment.created']);
  });

  it('downloads it byte for byte, with the safe headers and an RFC 6266 name', async () => {
    const res = await download(png.id);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(PNG)).toBe(true);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(PNG.length));
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="resume __.png"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E6%97%A5%E6%9C%AC.png`,
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toBe(`"${png.checksum.slice(7)}"`);
    // the headers every answer to a key carries, on a streamed one too (Fastify: copied from the reply it hijacks)
    expect(res.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const head = await fetch(`${t.baseUrl}/attachments/${png.id}/content`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([
      200,
      String(PNG.length),
      0,
    ]);
  });

  it('answers ranges (206), an unsatisfiable range (416) and If-None-Match (304)', async () => {
    const part = await download(png.id, { range: 'bytes=2-9' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 2-9/${PNG.length}`);
    expect(part.bytes.equals(PNG.subarray(2, 10))).toBe(true);
    const tail = await download(png.id, { range: 'bytes=-4' });
    expect(tail.status).toBe(206);
    expect(tail.bytes.equals(PNG.subarray(PNG.length - 4))).toBe(true);
    const past = await download(png.id, { range: `bytes=${PNG.length}-` });
    expect(past.status).toBe(416);
    expect(JSON.parse(past.bytes.toString())).toMatchObject({ statusCode: 416, error: 'RangeNotSatisfiableException' });
    const cached = await download(png.id, { 'if-none-match': `"${png.checksum.slice(7)}"` });
    expect(cached.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
  });

  it('detects PDF; bytes that are not UTF-8 text, or hold a NUL, stay application/octet-stream', async () => {
    const pdf = await upload(fileParts(PDF, 'c.pdf'));
    expect(pdf.body.data.createAttachment.mimeType).toBe('application/pdf');
    // not UTF-8 (bytes 0x80 and up with no lead byte before them), and no magic number either
    const binary = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i === 1 ? 0 : 0x80 + ((i * 37) % 127))));
    const cases = [
      binary,
      Buffer.from('text with a NUL\0 inside.txt'),
      Buffer.from('ends mid-character \u00e9').subarray(0, -1),
    ];
    for (const bytes of cases)
      expect((await upload(fileParts(bytes, 'a.txt'))).body.data.createAttachment.mimeType).toBe(
        'application/octet-stream',
      );
  });

  it('types UTF-8 text as text/plain, or the text type of its extension, never an active type', async () => {
    const text = await upload([...fileParts(TEXT, 'notes.txt'), { name: 'name', value: 'my notes' }]);
    expect(text.body.data.createAttachment).toMatchObject({ mimeType: 'text/plain; charset=utf-8', name: 'my notes' });
    expect((await download(text.body.data.createAttachment.id)).bytes.equals(TEXT)).toBe(true);
    const expected: Record<string, string> = {
      'a.csv': 'text/csv; charset=utf-8',
      'a.md': 'text/markdown; charset=utf-8',
      'a.json': 'application/json',
      'a.html': 'text/plain; charset=utf-8',
      'a.svg': 'text/plain; charset=utf-8',
      'a.js': 'text/plain; charset=utf-8',
      'a.xml': 'text/plain; charset=utf-8',
      noextension: 'text/plain; charset=utf-8',
    };
    const body = Buffer.from('<svg onload="alert(1)"><script>alert(1)</script></svg>, a;b\n');
    const got: Record<string, string> = {};
    for (const name of Object.keys(expected))
      got[name] = (await upload(fileParts(body, name))).body.data.createAttachment.mimeType;
    expect(got).toEqual(expected);
  });

  it('text split across chunks mid-character is text, and a text download keeps the safe headers', async () => {
    const wide = Buffer.from('é日本語😀 ,;\n'.repeat(9000)); // ~200 KB: many chunks, characters of 2 to 4 bytes
    const made = (await upload(fileParts(wide, 'page.html'))).body.data.createAttachment;
    expect(made.mimeType).toBe('text/plain; charset=utf-8');
    const res = await download(made.id);
    expect(res.bytes.equals(wide)).toBe(true);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });

  it('refuses size, mimeType and checksum in a JSON create or update, and serves no file for a JSON attachment', async () => {
    const made = await t.http.post('/attachments', { authorId, name: 'x', size: 3, checksum: 'sha256:00' });
    expect(made.status).toBe(400);
    expect(made.body.messages).toEqual(['size is read-only', 'checksum is read-only']);
    const plain = await t.http.post('/attachments?depth=0', { authorId, name: 'elsewhere', fullPath: 'https://x/y' });
    expect(plain.body.data.createAttachment).toMatchObject({ size: null, mimeType: null, checksum: null });
    expect((await download(plain.body.data.createAttachment.id)).status).toBe(404);
    const changed = await t.http.patch(`/attachments/${png.id}`, { mimeType: 'text/html' });
    expect(changed.status).toBe(400);
  });
});

describe('signed links', () => {
  let id: string;
  beforeAll(async () => {
    id = (await upload(fileParts(PDF, 'link.pdf'))).body.data.createAttachment.id;
  });

  it('downloads without a token until expiry; a tampered or expired link is a 403', async () => {
    const res = await fetch(`${t.baseUrl}/attachments/${id}/link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(res.status).toBe(201);
    const { url, expiresAt } = ((await res.json()) as { data: { url: string; expiresAt: string } }).data;
    expect(url.startsWith(t.baseUrl.replace('/rest', ''))).toBe(true);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(Buffer.from(await ok.arrayBuffer()).equals(PDF)).toBe(true);
    const tampered = await fetch(url.replace(/signature=./, (m) => m.slice(0, -1) + (m.endsWith('A') ? 'B' : 'A')));
    expect(tampered.status).toBe(403);
    const other = await fetch(url.replace(id, (await upload(fileParts(PNG))).body.data.createAttachment.id));
    expect(other.status).toBe(403);
    expect((await fetch(`${t.baseUrl}/attachments/${id}/content`)).status).toBe(401);
    await sleep(Date.parse(expiresAt) - Date.now() + 50);
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toMatchObject({ error: 'FORBIDDEN' });
  });
});

describe('bad input leaves nothing', () => {
  const cases: [string, () => Part[], number][] = [
    ['no file part', () => [{ name: 'authorId', value: authorId }], 400],
    ['two file parts', () => [...fileParts(PDF), { name: 'file', file: PDF, filename: 'b.pdf' }], 400],
    [
      'a file part of another name',
      () => [
        { name: 'authorId', value: authorId },
        { name: 'doc', file: PDF, filename: 'a' },
      ],
      400,
    ],
    ['an unknown field', () => [...fileParts(PDF), { name: 'colour', value: 'red' }], 400],
    ['a bad join column', () => [...fileParts(PDF), { name: 'personId', value: 'not-a-uuid' }], 400],
    [
      'a join column to nothing',
      () => [...fileParts(PDF), { name: 'personId', value: '3b0e8b8e-2a6f-4d1e-9d3c-1f1f1f1f1f1f' }],
      400,
    ],
    ['a read-only field', () => [...fileParts(PDF), { name: 'size', value: '3' }], 400],
    ['a fullPath', () => [...fileParts(PDF), { name: 'fullPath', value: 'ab/cd/x' }], 400],
    ['an executable (ELF)', () => fileParts(ELF, 'tool.txt'), 415],
    ['a file over FILE_MAX_BYTES', () => fileParts(Buffer.alloc(LIMIT + 1, 1)), 413],
  ];
  it.each(cases)('%s', async (_, parts, status) => {
    const before = await state();
    const res = await upload(parts());
    expect({ status: res.status, error: res.body.statusCode }).toEqual({ status, error: status });
    await backTo(before);
  });

  it('a non-multipart, non-JSON body is still a 415', async () => {
    const res = await t.http.request('POST', '/attachments', { raw: 'x', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
  });

  it('an upload aborted mid-body leaves nothing', async () => {
    const before = await state();
    const boundary = 'abortboundary';
    const req = httpRequest(`${t.baseUrl}/attachments`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': '100000',
      },
    });
    req.on('error', () => undefined);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n`);
    req.write(Buffer.alloc(20_000, 3));
    try {
      await until(() => storedFiles().length > before.files, 30_000); // the upload is under way
    } finally {
      req.destroy();
    }
    await backTo(before);
  });

  // Content-Length within FILE_MAX_BYTES + 4 MiB, or none (chunked): the limit is checked as the bytes arrive
  it.each([
    ['a Content-Length', { 'content-length': String(10 * LIMIT) }],
    ['chunked', {}],
  ])('answers 413 while the client is still sending (%s)', async (_, length) => {
    const before = await state();
    const boundary = 'bigboundary';
    const req = httpRequest(`${t.baseUrl}/attachments`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...length,
      },
    });
    req.on('error', () => undefined);
    const answered = new Promise<number>((resolve) => req.on('response', (res) => resolve(res.statusCode!)));
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n`);
    req.write(Buffer.alloc(LIMIT + 1000, 3)); // past the limit, far from the announced length
    try {
      expect(await answered).toBe(413);
    } finally {
      req.destroy();
    }
    await backTo(before);
  });
});

/**
 * Sends the headers and the first bytes of a body and no more, the socket kept open: the answer
 * (status, Connection header, body) or 'no answer' after two seconds.
 */
async function answerToAStart(path: string, headers: Record<string, string>, start: string) {
  const req = httpRequest(`${t.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.token}`, ...headers },
  });
  req.on('error', () => undefined);
  const answer = new Promise<{ status: number; connection?: string; body: Json }>((resolve) =>
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          connection: res.headers.connection,
          body: JSON.parse(Buffer.concat(chunks).toString()),
        }),
      );
    }),
  );
  req.write(start);
  try {
    return await Promise.race([answer, sleep(2000).then(() => 'no answer' as const)]);
  } finally {
    req.destroy();
  }
}

describe('413 before the body is read', () => {
  it('an upload whose Content-Length is over FILE_MAX_BYTES + 4 MiB, nothing stored', async () => {
    const before = await state();
    const boundary = 'earlyboundary';
    const res = await answerToAStart(
      '/attachments',
      {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(LIMIT + 4 * 1024 * 1024 + 1),
      },
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nfirst bytes`,
    );
    expect(res).toEqual({
      status: 413,
      connection: 'close',
      body: {
        statusCode: 413,
        error: 'PayloadTooLargeException',
        messages: [expect.stringContaining('FILE_MAX_BYTES')],
      },
    });
    await backTo(before);
  });

  it('a JSON body whose Content-Length is over the body limit', async () => {
    const res = await answerToAStart(
      '/companies',
      { 'content-type': 'application/json', 'content-length': String(t.config.bodyLimitBytes + 1) },
      '{"name":"',
    );
    expect(res).toEqual({
      status: 413,
      connection: 'close',
      body: { statusCode: 413, error: 'PayloadTooLargeException', messages: [expect.any(String)] },
    });
  });
});

describe('Idempotency-Key', () => {
  it('the same upload again gets the first answer (one record, one file); another under the same key is a 422, nothing left', async () => {
    const headers = { 'idempotency-key': `upload-${Date.now()}` };
    const parts = () => [...fileParts(PDF, 'contract.pdf'), { name: 'name', value: 'Contract' }];
    const first = await upload(parts(), t.token, headers);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const created = first.body.data.createAttachment;
    const before = await state();
    const again = await upload(parts(), t.token, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.createAttachment).toEqual(created);
    await backTo(before); // no second record, the second copy of the file removed
    expect((await download(created.id as string)).bytes.equals(PDF)).toBe(true);

    const otherFile = await upload(
      [...fileParts(PNG, 'contract.pdf'), { name: 'name', value: 'Contract' }],
      t.token,
      headers,
    );
    expect(otherFile.status).toBe(422);
    expect(otherFile.body.messages).toEqual([
      'Idempotency-Key was already used for a different request (other route, query or body); use a new key for a new request',
    ]);
    const otherFields = await upload(
      [...fileParts(PDF, 'contract.pdf'), { name: 'name', value: 'Other' }],
      t.token,
      headers,
    );
    expect(otherFields.status).toBe(422);
    await backTo(before);
  });
});

describe('lifecycle', () => {
  const stored = (id: string) => storage().stat(`${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`);

  it('soft delete keeps the file, restore serves it again, hard delete removes it after commit', async () => {
    const { id } = (await upload(fileParts(PDF))).body.data.createAttachment;
    expect((await t.http.delete(`/attachments/${id}?soft_delete=true`)).status).toBe(200);
    expect((await download(id)).status).toBe(404);
    expect(await stored(id)).toBeDefined();
    expect((await t.http.patch(`/attachments/${id}/restore`)).status).toBe(200);
    expect((await download(id)).bytes.equals(PDF)).toBe(true);
    expect((await t.http.delete(`/attachments/${id}`)).status).toBe(200);
    await until(async () => (await stored(id)) === undefined);
  });

  it('a hard delete of many by filter removes every file', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await upload(fileParts(PNG))).body.data.createAttachment.id);
    const res = await t.http.delete(`/attachments?filter=id[in]:[${ids.join(',')}]`);
    expect(res.status).toBe(200);
    await until(async () => (await Promise.all(ids.map(stored))).every((s) => s === undefined));
    // the outbox rows go once their files are removed (the cleaner deletes the files, then the rows)
    const outbox = async () =>
      Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM "fileDeletion"'))[0].n);
    await until(async () => (await outbox()) === 0).catch(() => undefined);
    expect(await outbox()).toBe(0);
  });

  it('a hard delete of a person removes the files of the attachments that go with it (cascade); a rollback queues none', async () => {
    const person = (await t.http.post('/people?depth=0', { city: 'Cascade' })).body.data.createPerson;
    const ids: string[] = [];
    for (let i = 0; i < 2; i++)
      ids.push(
        (await upload([...fileParts(PDF), { name: 'personId', value: person.id as string }])).body.data.createAttachment
          .id as string,
      );
    const queued = async (id: string) =>
      Number(
        (
          await t.db.query<{ n: string }>(`SELECT count(*) AS n FROM "fileDeletion" WHERE "objectKey" LIKE $1`, [
            `%${id}`,
          ])
        )[0].n,
      );
    await t.db
      .transaction(async (tx) => {
        await tx.query('DELETE FROM "attachment" WHERE "id" = $1', [ids[0]]);
        const inside = await tx.query<{ n: string }>(
          `SELECT count(*) AS n FROM "fileDeletion" WHERE "objectKey" LIKE $1`,
          [`%${ids[0]}`],
        );
        expect(Number(inside[0].n)).toBe(1); // queued by the delete, in its transaction
        throw new Error('roll back');
      })
      .catch((error: Error) => expect(error.message).toBe('roll back'));
    expect(await queued(ids[0])).toBe(0);
    expect(await stored(ids[0])).toBeDefined();

    expect((await t.http.delete(`/people/${person.id}`)).status).toBe(200);
    for (const id of ids) expect((await t.http.get(`/attachments/${id}`)).status).toBe(404);
    await until(async () => {
      await t.app.get(FileCleaner).drain();
      return (await Promise.all(ids.map(stored))).every((s) => s === undefined);
    });
  });

  it('the sweep removes stored files no attachment points to', async () => {
    const { id } = (await upload(fileParts(PNG))).body.data.createAttachment;
    await t.db.query('DELETE FROM "attachment" WHERE "id" = $1', [id]); // as if the insert never happened
    const keep = (await upload(fileParts(PDF))).body.data.createAttachment.id;
    await t.app.get(FileCleaner).sweep();
    expect(await stored(id)).toBeUndefined();
    expect(await stored(keep)).toBeDefined();
  });
});

describe('access (API.md section 14)', () => {
  it('upload needs create (403, nothing stored); download and link need read and the row filter', async () => {
    const reader = await keyWithRole(t, [{ collection: 'attachments', actions: ['read'] }]);
    const before = await state();
    const refused = await upload(fileParts(PNG), reader.token);
    expect(refused.status).toBe(403);
    await backTo(before);
    const writer = await keyWithRole(t, [{ collection: 'attachments', actions: ['create'] }]);
    const { id } = (await upload(fileParts(PNG), writer.token)).body.data.createAttachment;
    expect((await download(id, {}, writer.token)).status).toBe(403);
    expect((await writer.http.post(`/attachments/${id}/link`, {})).status).toBe(403);
    expect((await download(id, {}, reader.token)).status).toBe(200);
    const limited = await keyWithRole(t, [
      { collection: 'attachments', actions: ['create', 'read'], readOnlyFields: ['type'], hiddenFields: ['noteId'] },
    ]);
    const before2 = await state();
    // refused by name whatever the value: the invalid values' own messages would not be given
    for (const [field, value] of [
      ['type', 'Contract'],
      ['noteId', '3b0e8b8e-2a6f-4d1e-9d3c-1f1f1f1f1f1f'],
      ['type', 'NOT_A_TYPE'],
      ['noteId', 'not-a-uuid'],
    ]) {
      const res = await upload([...fileParts(PNG), { name: field, value }], limited.token);
      expect({ status: res.status, messages: res.body.messages }).toEqual({
        status: 400,
        messages: [`Field '${field}' is not writable`],
      });
    }
    await backTo(before2);
    const filtered = await keyWithRole(t, [
      { collection: 'attachments', actions: ['read'], filter: 'name[eq]:"other"' },
    ]);
    expect((await download(id, {}, filtered.token)).status).toBe(404);
    expect((await filtered.http.post(`/attachments/${id}/link`, {})).status).toBe(404);
  });
});

describe('route table and OpenAPI', () => {
  it('documents the multipart upload, the binary download with ranges and the link', async () => {
    const doc = (await t.http.get('/open-api/core', { anonymous: true })).body;
    const upload = doc.paths['/attachments'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(upload.required).toEqual(expect.arrayContaining(['file', 'authorId']));
    expect(upload.properties).not.toHaveProperty('size');
    const content = doc.paths['/attachments/{id}/content'].get;
    expect(Object.keys(content.responses)).toEqual(expect.arrayContaining(['200', '206', '304', '416', '404']));
    expect(content.responses['200'].content['*/*'].schema).toMatchObject({ format: 'binary' });
    const link = doc.paths['/attachments/{id}/link'].post.responses['201'].content['application/json'].schema;
    expect(link.properties.data.required).toEqual(['url', 'expiresAt']);
    expect(doc.paths).not.toHaveProperty('/people/{id}/content');
  });

  it('the unknown-route answers know the file routes, of attachments only', async () => {
    const id = '3b0e8b8e-2a6f-4d1e-9d3c-1f1f1f1f1f1f';
    const wrongMethod = await t.http.delete(`/attachments/${id}/content`);
    expect(wrongMethod.body.messages).toEqual([
      `DELETE is not supported on '/rest/attachments/${id}/content'; it accepts GET`,
    ]);
    const elsewhere = await t.http.get(`/people/${id}/content`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.messages[0]).toMatch(/^Query path '\/rest\/people\/.*\/content' invalid/);
  });
});
