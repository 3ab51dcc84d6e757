/**
 * Files for attachments on an S3-compatible store (API.md section 16): s3rver (npm) in a child
 * process. An upload downloads byte for byte (ranges too) and a hard delete removes the object
 * after commit; a rejected upload leaves no object and no unfinished multipart upload.
 */
import { createHash } from 'node:crypto';
import { FileStorage } from '../../src/core/files';
import { sleep } from '../support/child-server';
import { createRecord } from '../support/fixtures';
import { S3TestServer } from '../support/s3-test-server';
import { startTestApp, TestApp } from '../support/test-app';

let s3: S3TestServer;
let t: TestApp;
let authorId: string;

beforeAll(async () => {
  s3 = await S3TestServer.start();
  const { bucket, endpoint, credentials } = s3.config;
  t = await startTestApp({
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint!,
    S3_ACCESS_KEY_ID: credentials!.accessKeyId,
    S3_SECRET_ACCESS_KEY: credentials!.secretAccessKey,
    FILE_MAX_BYTES: String(6 * 1024 * 1024),
    FILE_CLEANUP_INTERVAL_MS: '50',
  });
  authorId = (await createRecord(t.http, 'workspaceMembers')).id as string;
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});

/** Bytes no format detector knows, larger than one multipart part (5 MiB). */
const BYTES = Buffer.alloc(5.5 * 1024 * 1024);
for (let i = 0; i < BYTES.length; i++) BYTES[i] = (i * 31 + (i >> 9)) & 0xff;
BYTES.write('no magic', 0);

async function upload(file: Buffer) {
  const form = new FormData();
  form.append('authorId', authorId);
  form.append('file', new Blob([file]), 'big.bin');
  const res = await fetch(`${t.baseUrl}/attachments?depth=0`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { data: { createAttachment: Record<string, string> } } };
}

const keyOf = (id: string) => `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;

it('uploads to the bucket, downloads identically (ranges too), and a hard delete removes the object', async () => {
  const res = await upload(BYTES);
  expect(res.status).toBe(201);
  const record = res.body.data.createAttachment;
  expect(record).toMatchObject({
    size: BYTES.length,
    mimeType: 'application/octet-stream',
    checksum: `sha256:${createHash('sha256').update(BYTES).digest('hex')}`,
  });
  const storage = t.app.get(FileStorage);
  expect((await storage.stat(keyOf(record.id)))?.size).toBe(BYTES.length);
  const whole = await fetch(`${t.baseUrl}/attachments/${record.id}/content`, {
    headers: { authorization: `Bearer ${t.token}` },
  });
  expect(Buffer.from(await whole.arrayBuffer()).equals(BYTES)).toBe(true);
  const part = await fetch(`${t.baseUrl}/attachments/${record.id}/content`, {
    headers: { authorization: `Bearer ${t.token}`, range: 'bytes=5242870-5242889' },
  });
  expect(part.status).toBe(206);
  expect(Buffer.from(await part.arrayBuffer()).equals(BYTES.subarray(5242870, 5242890))).toBe(true);

  expect((await t.http.delete(`/attachments/${record.id}`)).status).toBe(200);
  const end = Date.now() + 10_000;
  while ((await storage.stat(keyOf(record.id))) !== undefined) {
    if (Date.now() > end) throw new Error('the object was not removed');
    await sleep(50);
  }
});

it('a file over the limit leaves no object and no unfinished upload in the bucket', async () => {
  const storage = t.app.get(FileStorage);
  const count = async () => {
    let n = 0;
    for await (const _ of storage.list(new Date(Date.now() + 60_000))) n++;
    return n;
  };
  const before = await count();
  const res = await upload(Buffer.concat([BYTES, BYTES]));
  expect(res.status).toBe(413);
  const end = Date.now() + 10_000;
  while ((await count()) !== before || s3.pendingUploads().length > 0) {
    if (Date.now() > end)
      throw new Error(`left behind: ${await count()} objects, ${s3.pendingUploads().length} uploads`);
    await sleep(50);
  }
});
