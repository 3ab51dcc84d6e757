/**
 * The storage of attachment files (src/core/files), one suite for both implementations: a folder
 * (DiskFileStorage) and an S3-compatible store (S3FileStorage against s3rver, a fake S3 server
 * from npm run in a child process). Bytes come from generated streams, never whole buffers.
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Test } from '@nestjs/testing';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { loadConfig } from '../../src/core/config/app-config';
import { ConfigModule } from '../../src/core/config/config.module';
import {
  DiskFileStorage,
  FileStorage,
  FileStorageModule,
  InvalidObjectKeyError,
  newObjectKey,
  ObjectNotFoundError,
  RangeNotSatisfiableError,
  S3FileStorage,
  StoredObject,
} from '../../src/core/files';
import { sleep } from '../support/child-server';
import { digestOf, generatedBytes, generatedRange, summaryOf } from '../support/generated-bytes';
import { S3TestServer } from '../support/s3-test-server';

const MiB = 1024 * 1024;

/** One implementation under test, with a view of its insides that the interface does not give. */
interface Harness {
  storage: FileStorage;
  /** Pieces of unfinished uploads: temporary files (disk), uploaded parts (S3). */
  unfinished(): string[];
  /** Stores an object under a key that is not the service's, behind the storage's back. */
  putForeign(key: string): Promise<void>;
  stop(): Promise<void>;
}

/** Every file under `dir`, hidden ones included, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await S3TestServer.start();
});
afterAll(async () => {
  await s3?.stop();
});

const implementations: [string, () => Promise<Harness>][] = [
  [
    'disk',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'crm-files-test-'));
      return {
        storage: new DiskFileStorage(root),
        unfinished: () => filesUnder(root).filter((path) => path.endsWith('.partial')),
        putForeign: async (key) => {
          mkdirSync(join(root, key, '..'), { recursive: true });
          writeFileSync(join(root, key), 'not an object of the service');
        },
        stop: async () => rmSync(root, { recursive: true, force: true }),
      };
    },
  ],
  [
    's3',
    async () => {
      // two keys per listing request: listing 5 objects follows continuation tokens
      const storage = new S3FileStorage(s3.config, { pageSize: 2 });
      const client = new S3Client({ ...s3.config });
      return {
        storage,
        unfinished: () => s3.pendingParts(),
        putForeign: async (key) => {
          await client.send(
            new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: 'not an object of the service' }),
          );
        },
        stop: async () => {
          client.destroy();
          await storage.close();
        },
      };
    },
  ],
];

/** Writes `bytes` of generated data into `source` (1 MiB writes), then waits until `ready()` or 30 s. */
async function feedUntil(source: PassThrough, bytes: number, ready: () => boolean): Promise<void> {
  const data = generatedBytes(bytes, 9);
  for await (const chunk of data) source.write(chunk);
  for (let i = 0; i < 600 && !ready(); i++) await sleep(50);
  expect(ready()).toBe(true);
}

async function listed(storage: FileStorage, olderThan: Date): Promise<StoredObject[]> {
  const objects: StoredObject[] = [];
  for await (const object of storage.list(olderThan)) objects.push(object);
  return objects;
}

describe.each(implementations)('%s file storage', (_name, open) => {
  let h: Harness;
  beforeAll(async () => {
    h = await open();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('returns the bytes it stored, unchanged: 0, 1 and 100,000 bytes', async () => {
    for (const [size, seed] of [
      [0, 1],
      [1, 2],
      [100_000, 3],
    ]) {
      const key = newObjectKey();
      await expect(h.storage.put(key, generatedBytes(size, seed), { contentType: 'text/plain' })).resolves.toEqual({
        size,
      });
      expect(await digestOf(await h.storage.get(key))).toEqual(
        summaryOf(await generatedRange(size, seed, 0, size - 1)),
      );
      expect(await h.storage.stat(key)).toMatchObject({ key, size });
    }
  });

  it('streams 20 MiB in and out (three multipart parts on S3) and serves ranges of it', async () => {
    const size = 20 * MiB + 3;
    const key = newObjectKey();
    expect(await h.storage.put(key, generatedBytes(size, 4))).toEqual({ size });
    expect(await digestOf(await h.storage.get(key))).toEqual(await digestOf(generatedBytes(size, 4)));
    const ranges = [
      [0, 0], // the first byte
      [8 * MiB - 2, 8 * MiB + 1], // across the first part boundary
      [size - 5, size - 1], // the last bytes
      [size - 1, size + 100], // past the end: up to the last byte
    ];
    for (const [start, end] of ranges) {
      const got = await digestOf(await h.storage.get(key, { start, end }));
      expect({ start, got }).toEqual({ start, got: summaryOf(await generatedRange(size, 4, start, end)) });
    }
    expect(await digestOf(await h.storage.get(key, { start: 0, end: size - 1 }))).toEqual({
      sha256: (await digestOf(generatedBytes(size, 4))).sha256,
      length: size,
    });
  });

  it('refuses a range past the end, a malformed range and a missing key', async () => {
    const key = newObjectKey();
    await h.storage.put(key, generatedBytes(10, 5));
    await expect(h.storage.get(key, { start: 10, end: 20 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
    await expect(h.storage.get(key, { start: 5, end: 4 })).rejects.toBeInstanceOf(RangeError);
    await expect(h.storage.get(key, { start: -1, end: 4 })).rejects.toBeInstanceOf(RangeError);
    const missing = newObjectKey();
    await expect(h.storage.get(missing)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(h.storage.stat(missing)).resolves.toBeUndefined();
  });

  it('deletes one or many keys; deleting a missing key succeeds', async () => {
    const [a, b, c] = [newObjectKey(), newObjectKey(), newObjectKey()];
    for (const key of [a, b, c]) await h.storage.put(key, generatedBytes(100, 6));
    await h.storage.delete(a);
    await expect(h.storage.get(a)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(h.storage.delete(a)).resolves.toBeUndefined();
    await h.storage.deleteMany([b, newObjectKey(), c]);
    for (const key of [a, b, c]) await expect(h.storage.stat(key)).resolves.toBeUndefined();
    await expect(h.storage.deleteMany([])).resolves.toBeUndefined();
  });

  it('lists the objects older than a time, with size and last modification, skipping foreign keys', async () => {
    const before = Date.now();
    const keys = [newObjectKey(), newObjectKey(), newObjectKey(), newObjectKey(), newObjectKey()];
    for (const [i, key] of keys.entries()) await h.storage.put(key, generatedBytes(i * 10, 7));
    await h.putForeign('ab/cd/readme.txt');
    const after = Date.now();

    const all = await listed(h.storage, new Date(after + 5_000));
    const ours = all.filter((o) => keys.includes(o.key)).sort((x, y) => x.size - y.size);
    expect(ours.map((o) => [o.key, o.size])).toEqual(keys.map((key, i) => [key, i * 10]));
    for (const { lastModified } of ours) {
      // S3 keeps whole seconds
      expect(lastModified.getTime()).toBeGreaterThanOrEqual(before - 1_000);
      expect(lastModified.getTime()).toBeLessThanOrEqual(after + 1_000);
    }
    expect(all.map((o) => o.key)).not.toContain('ab/cd/readme.txt');
    const older = await listed(h.storage, new Date(before - 2_000));
    expect(older.filter((o) => keys.includes(o.key))).toEqual([]);
  });

  it('leaves nothing of an upload whose source fails mid-way, or ends early', async () => {
    const key = newObjectKey();
    const source = new PassThrough();
    const putting = h.storage.put(key, source);
    // 9 MiB: on S3 a multipart upload has begun and its first part is stored
    await feedUntil(source, 9 * MiB, () => h.unfinished().length > 0);
    source.destroy(new Error('the client went away'));
    await expect(putting).rejects.toThrow('the client went away');
    expect(h.unfinished()).toEqual([]);
    await expect(h.storage.stat(key)).resolves.toBeUndefined();

    const early = newObjectKey();
    const short = new PassThrough();
    const cut = h.storage.put(early, short);
    short.write(Buffer.alloc(1000));
    await sleep(50);
    short.destroy(); // no error: a premature close
    await expect(cut).rejects.toThrow();
    expect(h.unfinished()).toEqual([]);
    const keys = (await listed(h.storage, new Date(Date.now() + 5_000))).map((o) => o.key);
    expect(keys).not.toContain(key);
    expect(keys).not.toContain(early);
  });

  it('removes what an upload cut short by a crash left, once it is stale', async () => {
    const source = new PassThrough();
    const putting = h.storage.put(newObjectKey(), source);
    const failed = expect(putting).rejects.toThrow();
    await feedUntil(source, 9 * MiB, () => h.unfinished().length > 0);
    expect(await h.storage.removeStaleUploads(new Date(Date.now() - 60_000))).toBe(0);
    expect(h.unfinished()).not.toEqual([]);
    expect(await h.storage.removeStaleUploads(new Date(Date.now() + 60_000))).toBe(1);
    expect(h.unfinished()).toEqual([]);
    source.destroy(new Error('the process died'));
    await failed;
    expect(h.unfinished()).toEqual([]);
  });

  it('refuses keys that are not the service own before touching anything', async () => {
    const valid = newObjectKey();
    const bad = [
      '',
      '../escaped',
      '../../etc/passwd',
      '/etc/passwd',
      `${valid}/../../../../escaped`,
      `ab/cd/../../../escaped`,
      valid.toUpperCase(),
      `${valid.slice(0, 6)}x${valid.slice(7)}`,
      `00/00/${valid.slice(6)}`, // folders that are not the UUID's first digits
      `${valid.slice(0, 6)}\\..\\escaped`,
      'report.pdf',
    ];
    for (const key of bad) {
      await expect(h.storage.put(key, Readable.from([Buffer.from('x')]))).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(h.storage.get(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(h.storage.stat(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(h.storage.delete(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
      await expect(h.storage.deleteMany([valid, key])).rejects.toBeInstanceOf(InvalidObjectKeyError);
    }
    expect(existsSync(join(tmpdir(), 'escaped'))).toBe(false);
  });
});

describe('FileStorageModule', () => {
  async function storageFor(env: Record<string, string>) {
    const config = loadConfig(env);
    const module = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(config), FileStorageModule],
    }).compile();
    const app = await module.init();
    return { app, storage: app.get(FileStorage) };
  }

  it('stores under DATA_DIR/files by default, in a temporary folder with an in-memory DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crm-data-test-'));
    try {
      const onDisk = await storageFor({ DATA_DIR: dataDir });
      expect(onDisk.storage).toBeInstanceOf(DiskFileStorage);
      const key = newObjectKey();
      await onDisk.storage.put(key, generatedBytes(10, 8));
      expect(existsSync(join(dataDir, 'files', key))).toBe(true);
      await onDisk.app.close();
      expect(existsSync(join(dataDir, 'files', key))).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }

    const inMemory = await storageFor({ DATA_DIR: 'memory://' });
    const root = (inMemory.storage as DiskFileStorage).root;
    await inMemory.storage.put(newObjectKey(), generatedBytes(10, 8));
    expect(existsSync(root)).toBe(true);
    await inMemory.app.close();
    expect(existsSync(root)).toBe(false);
  });

  it('stores in S3 when S3_BUCKET is set', async () => {
    const { app, storage } = await storageFor({
      DATA_DIR: 'memory://',
      S3_BUCKET: s3.bucket,
      S3_ENDPOINT: s3.config.endpoint!,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    expect(storage).toBeInstanceOf(S3FileStorage);
    const key = newObjectKey();
    await storage.put(key, generatedBytes(1000, 9));
    const direct = new S3FileStorage(s3.config);
    expect(await digestOf(await direct.get(key, { start: 990, end: 999 }))).toEqual(
      summaryOf(await generatedRange(1000, 9, 990, 999)),
    );
    await direct.close();
    await app.close();
  });
});
