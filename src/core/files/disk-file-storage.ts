import { randomBytes } from 'node:crypto';
import { createWriteStream, Stats, WriteStream } from 'node:fs';
import { mkdir, open, opendir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteRange, checkRange, FileStorage, StoredObject } from './file-storage';
import { InvalidObjectKeyError, ObjectNotFoundError, RangeNotSatisfiableError } from './file-storage-errors';
import { assertObjectKey, isObjectKey } from './object-keys';

/** A folder level of a key (`ab` of `ab/cd/<uuid>`). */
const SHARD = /^[0-9a-f]{2}$/;
/** A file being written: `.<uuid>.<12 hex>.partial` beside its final name, renamed when complete. */
const PARTIAL = /^\.[0-9a-f-]{36}\.[0-9a-f]{12}\.partial$/;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The entries of `dir` that are key folder levels, or none when `dir` does not exist (yet). */
async function shardsOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error) => {
    if (isMissing(error)) return [];
    throw error;
  });
  return entries.filter((e) => e.isDirectory() && SHARD.test(e.name)).map((e) => e.name);
}

/** Stats of `path`, or undefined when it was removed meanwhile (a concurrent delete). */
async function statIfPresent(path: string): Promise<Stats | undefined> {
  return stat(path).catch((error) => {
    if (isMissing(error)) return undefined;
    throw error;
  });
}

/**
 * Objects as files of a folder, `<root>/ab/cd/<uuid>` (`<DATA_DIR>/files` by default). A file is
 * written under a temporary name in its final folder, flushed to disk, then renamed: a reader
 * never sees half a file, and a failed write leaves nothing.
 */
export class DiskFileStorage extends FileStorage {
  /** The folder of the objects (absolute). */
  readonly root: string;

  /** `temporary`: the folder is the process's own (in-memory DATA_DIR) and `close()` removes it. */
  constructor(
    root: string,
    private readonly options: { temporary?: boolean } = {},
  ) {
    super();
    this.root = resolve(root);
  }

  /** The file of `key`; refuses any key that is not the service's or would leave the folder. */
  private pathOf(key: string): string {
    assertObjectKey(key);
    const path = resolve(this.root, key);
    const inside = relative(this.root, path);
    // a second guard under the key check: whatever the key, the path stays inside the root
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw new InvalidObjectKeyError(key);
    return path;
  }

  async put(key: string, body: Readable): Promise<{ size: number }> {
    const path = this.pathOf(key);
    const folder = dirname(path);
    await mkdir(folder, { recursive: true });
    const partial = join(folder, `.${key.slice(6)}.${randomBytes(6).toString('hex')}.partial`);
    // flush: the bytes reach the disk before the rename makes the file visible
    const file = createWriteStream(partial, { flags: 'wx', flush: true });
    try {
      await pipeline(body, file);
      await rename(partial, path);
    } catch (error) {
      await closed(file);
      await rm(partial, { force: true });
      throw error;
    }
    await syncFolder(folder);
    return { size: file.bytesWritten };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    checkRange(range);
    const path = this.pathOf(key);
    const handle = await open(path, 'r').catch((error) => {
      throw isMissing(error) ? new ObjectNotFoundError(key) : error;
    });
    if (range) {
      const { size } = await handle.stat().catch(async (error) => {
        await handle.close();
        throw error;
      });
      if (range.start >= size) {
        await handle.close();
        throw new RangeNotSatisfiableError(key, range.start);
      }
    }
    // the stream closes the file when it ends or is destroyed
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    const info = await statIfPresent(this.pathOf(key));
    return info?.isFile() ? { key, size: info.size, lastModified: info.mtime } : undefined;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    const paths = keys.map((key) => this.pathOf(key)); // every key checked before any removal
    for (const path of paths) await rm(path, { force: true });
  }

  async *list(olderThan: Date): AsyncIterable<StoredObject> {
    for await (const { folder, name } of this.files()) {
      const key = `${folder}/${name}`;
      if (!isObjectKey(key)) continue;
      const info = await statIfPresent(join(this.root, key));
      if (info?.isFile() && info.mtime < olderThan) yield { key, size: info.size, lastModified: info.mtime };
    }
  }

  async removeStaleUploads(olderThan: Date): Promise<number> {
    let removed = 0;
    for await (const { folder, name } of this.files()) {
      if (!PARTIAL.test(name)) continue;
      const path = join(this.root, folder, name);
      const info = await statIfPresent(path);
      if (info && info.mtime < olderThan) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  override async close(): Promise<void> {
    if (this.options.temporary) await rm(this.root, { recursive: true, force: true });
  }

  /** Every file of the two key folder levels, one folder read at a time. */
  private async *files(): AsyncGenerator<{ folder: string; name: string }> {
    for (const first of await shardsOf(this.root)) {
      for (const second of await shardsOf(join(this.root, first))) {
        const folder = `${first}/${second}`;
        const dir = await opendir(join(this.root, folder)).catch((error) => {
          if (isMissing(error)) return undefined;
          throw error;
        });
        if (!dir) continue;
        for await (const entry of dir) if (entry.isFile()) yield { folder, name: entry.name };
      }
    }
  }
}

/** Resolves once the write stream has released its file (a destroyed stream still opening included). */
function closed(file: WriteStream): Promise<void> {
  file.destroy();
  return file.closed ? Promise.resolve() : new Promise((done) => file.once('close', () => done()));
}

/** Makes a rename durable: fsync of the folder that holds the file (best effort where unsupported). */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } catch {
    /* some file systems cannot fsync a folder; the file itself was flushed */
  } finally {
    await handle.close();
  }
}
