import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  paginateListObjectsV2,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3StorageConfig } from '../config/file-storage-config';
import { ByteRange, checkRange, FileStorage, PutOptions, StoredObject } from './file-storage';
import { ObjectNotFoundError, RangeNotSatisfiableError } from './file-storage-errors';
import { assertObjectKey, isObjectKey } from './object-keys';

/** Tuning of S3FileStorage (tests use smaller parts and pages). */
export interface S3FileStorageOptions {
  /** Bytes per multipart-upload part (S3's minimum: 5 MiB; default 8 MiB). */
  partSize?: number;
  /** Parts uploaded at once per upload (default 2): memory per upload is about (queueSize + 1) × partSize. */
  queueSize?: number;
  /** Keys per listing request (default and S3's maximum: 1000). */
  pageSize?: number;
}

/** S3's limit of keys per DeleteObjects request. */
const DELETE_BATCH = 1000;

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

/**
 * Objects in a bucket of an S3-compatible store, under the service's keys. Uploads stream
 * through S3 multipart uploads (a part at a time in memory; a single PUT below one part); a
 * failed upload is aborted so that no part remains.
 */
export class S3FileStorage extends FileStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly tuning: Required<S3FileStorageOptions>;

  constructor(config: S3StorageConfig, options: S3FileStorageOptions = {}) {
    super();
    this.bucket = config.bucket;
    this.tuning = { partSize: 8 * 1024 * 1024, queueSize: 2, pageSize: 1000, ...options };
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials,
    });
  }

  async put(key: string, body: Readable, options: PutOptions = {}): Promise<{ size: number }> {
    assertObjectKey(key);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // pipeline: an error or early end of `body` reaches the upload through `counter`
    const piping = pipeline(body, counter);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counter, ContentType: options.contentType },
      partSize: this.tuning.partSize,
      queueSize: this.tuning.queueSize,
      leavePartsOnError: false, // a failed multipart upload is aborted: its parts are removed
    });
    const uploading = upload.done().catch((error: unknown) => {
      counter.destroy(); // the store failed: stop reading the body
      throw error;
    });
    // both settled: a failed upload has been aborted before put() rejects
    const [uploaded, piped] = await Promise.allSettled([uploading, piping]);
    if (piped.status === 'rejected') {
      // the body failed (the client went away): its error tells why, even if the upload got all it read
      if (uploaded.status === 'fulfilled') await this.delete(key);
      throw piped.reason;
    }
    if (uploaded.status === 'rejected') throw uploaded.reason;
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    checkRange(range);
    assertObjectKey(key);
    try {
      const { Body } = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return Body as Readable;
    } catch (error) {
      if (statusOf(error) === 404) throw new ObjectNotFoundError(key);
      if (statusOf(error) === 416 && range) throw new RangeNotSatisfiableError(key, range.start);
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    assertObjectKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: head.ContentLength ?? 0, lastModified: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    keys.forEach(assertObjectKey);
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const { Errors } = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      if (Errors?.length)
        throw new Error(`S3 kept ${Errors.length} of ${batch.length} objects: ${Errors[0].Key}: ${Errors[0].Message}`);
    }
  }

  async *list(olderThan: Date): AsyncIterable<StoredObject> {
    const pages = paginateListObjectsV2(
      { client: this.client, pageSize: this.tuning.pageSize },
      { Bucket: this.bucket },
    );
    for await (const page of pages) {
      for (const { Key, Size, LastModified } of page.Contents ?? []) {
        if (Key && LastModified && isObjectKey(Key) && LastModified < olderThan)
          yield { key: Key, size: Size ?? 0, lastModified: LastModified };
      }
    }
  }

  async removeStaleUploads(olderThan: Date): Promise<number> {
    let removed = 0;
    let markers: { KeyMarker?: string; UploadIdMarker?: string } = {};
    for (;;) {
      const page = await this.client.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, ...markers }));
      for (const { Key, UploadId, Initiated } of page.Uploads ?? []) {
        if (!Key || !UploadId || !isObjectKey(Key) || !(Initiated && Initiated < olderThan)) continue;
        await this.client
          .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId }))
          .catch((error: unknown) => {
            if (statusOf(error) !== 404) throw error; // NoSuchUpload: completed or aborted meanwhile
          });
        removed += 1;
      }
      if (!page.IsTruncated) return removed;
      markers = { KeyMarker: page.NextKeyMarker, UploadIdMarker: page.NextUploadIdMarker };
    }
  }

  override async close(): Promise<void> {
    this.client.destroy();
  }
}
