import type { Readable } from 'node:stream';

/** Bytes `start` to `end` of an object, both included, as in an HTTP `Range: bytes=start-end` header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** What the storage knows of one stored object. */
export interface StoredObject {
  key: string;
  size: number;
  lastModified: Date;
}

/** Options of `FileStorage.put`. */
export interface PutOptions {
  /** Stored with the object where the store keeps it (S3); the service's record stays the reference. */
  contentType?: string;
}

/**
 * Where the bytes of attachments live: a folder under DATA_DIR (`DiskFileStorage`) or an
 * S3-compatible bucket (`S3FileStorage`); `FileStorageModule` provides the configured one under
 * this class as injection token. Every method streams: no whole file is ever held in memory.
 * Keys are the service's own, from `newObjectKey()`; any other key is refused with
 * `InvalidObjectKeyError` before the store is touched.
 */
export abstract class FileStorage {
  /**
   * Stores `body` under `key` (replacing an object of that key) and resolves with its size once
   * it is durably stored. When `body` errors or is destroyed, or the store fails, it rejects and
   * nothing remains: no object, no temporary file, no multipart upload.
   */
  abstract put(key: string, body: Readable, options?: PutOptions): Promise<{ size: number }>;

  /**
   * The bytes of `key`, or of `range` of them (`end` past the last byte reads to the end).
   * Rejects with `ObjectNotFoundError` for a missing key, `RangeNotSatisfiableError` when
   * `range.start` is at or past the end, `RangeError` for a malformed range.
   */
  abstract get(key: string, range?: ByteRange): Promise<Readable>;

  /** Size and last modification of `key`, or undefined when no such object exists. */
  abstract stat(key: string): Promise<StoredObject | undefined>;

  /** Removes `key`; removing a missing key succeeds. */
  abstract delete(key: string): Promise<void>;

  /** Removes every key of `keys` (missing ones included), in as few requests as the store allows. */
  abstract deleteMany(keys: readonly string[]): Promise<void>;

  /**
   * Every stored object last modified before `olderThan`, page by page (for the sweep that
   * removes objects no record points to). Objects whose key is not the service's are skipped.
   */
  abstract list(olderThan: Date): AsyncIterable<StoredObject>;

  /**
   * Removes what uploads cut short by a crash left behind and nothing touched since `olderThan`:
   * temporary files on disk, incomplete multipart uploads in S3. Resolves with how many.
   */
  abstract removeStaleUploads(olderThan: Date): Promise<number>;

  /** Releases what the storage holds (connections, a temporary folder); FileStorageModule calls it at shutdown. */
  async close(): Promise<void> {}
}

/** Throws RangeError unless `range` is whole numbers with 0 <= start <= end. */
export function checkRange(range: ByteRange | undefined): void {
  if (range === undefined) return;
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start)
    throw new RangeError(`invalid byte range ${start}-${end}: expected whole numbers with 0 <= start <= end`);
}
