import { BadRequestException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { FilesConfig } from '../../core/config/file-storage-config';
import { DeniedFileTypeError, FileFacts, FileMeter, FileStorage, FileTooLargeError } from '../../core/files';

/** What a multipart upload brought: its text parts and its one file, stored under `key`. */
export interface ReceivedUpload {
  fields: Record<string, string>;
  /** The file part's name (filename / filename*), when it has one. */
  fileName?: string;
  facts: FileFacts;
}

/** The client went away before the body was complete: nothing is answered, nothing is kept. */
export class UploadAbortedError extends Error {
  constructor() {
    super('The client closed the connection before the upload was complete');
    this.name = 'UploadAbortedError';
  }
}

const MAX_FIELDS = 50;
const MAX_FIELD_BYTES = 64 * 1024;
/**
 * What a form may hold besides its file: 50 text parts of 64 KiB (3,200 KiB), and the headers
 * (busboy's limit: 16 KiB a part) and boundaries (70 characters at most, RFC 2046) of 51 parts
 * (820 KiB): 4,020 KiB, rounded up to 4 MiB. A `Content-Length` over `FILE_MAX_BYTES` plus this
 * is a 413 before any byte of the body is read.
 */
const FORM_ALLOWANCE_BYTES = 4 * 1024 * 1024;

/** The 413 of a body announced as bigger than any form with a file within `maxBytes` can be. */
function declaredTooLarge(request: IncomingMessage, maxBytes: number): PayloadTooLargeException | undefined {
  const declared = Number(request.headers['content-length']);
  if (!(declared > maxBytes + FORM_ALLOWANCE_BYTES)) return undefined;
  return new PayloadTooLargeException(
    `Body of ${declared} bytes is larger than FILE_MAX_BYTES (${maxBytes}) plus 4 MiB for the other parts of the form`,
  );
}

/** The answer for what went wrong while receiving (a refused file, a malformed body, an abort). */
function explain(error: unknown): Error {
  if (error instanceof FileTooLargeError) return new PayloadTooLargeException(error.message);
  if (error instanceof DeniedFileTypeError) return new UnsupportedMediaTypeException(error.message);
  if (error instanceof UploadAbortedError || error instanceof BadRequestException) return error;
  // busboy's own complaints: a malformed multipart body (a storage failure is not one)
  if (error instanceof Error && !(error as NodeJS.ErrnoException).code && !(error as { $metadata?: unknown }).$metadata)
    return new BadRequestException(`Malformed multipart body: ${error.message}`);
  return error as Error;
}

/**
 * Reads a multipart/form-data request as a stream (busboy on the raw request, on both adapters):
 * the text parts are collected (small, bounded), the one part named `file` flows through a
 * FileMeter (size limit, SHA-256, type from the bytes and the part's file name) into `storage`
 * under `key`. Rejects (413, 415, 400, UploadAbortedError) as soon as something is wrong, after
 * making sure nothing remains stored under `key` (a 413 without reading the body when its
 * `Content-Length` is over `maxBytes` + FORM_ALLOWANCE_BYTES); resolves once the file is durably stored.
 */
export function receiveUpload(
  request: IncomingMessage,
  storage: FileStorage,
  key: string,
  limits: Pick<FilesConfig, 'maxBytes' | 'deniedTypes'>,
): Promise<ReceivedUpload> {
  const refused = declaredTooLarge(request, limits.maxBytes);
  if (refused) return Promise.reject(refused);
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: { meter: FileMeter; stored: Promise<unknown>; name?: string } | undefined;
    let settled = false;
    let parser: busboy.Busboy;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      request.unpipe(parser);
      const problem = explain(error);
      file?.meter.destroy(problem);
      // the storage removes a partial object itself; a delete also covers a put that had completed
      const stored = file?.stored ?? Promise.resolve();
      stored
        .catch(() => undefined)
        .then(() => (file ? storage.delete(key) : undefined))
        .then(
          () => reject(problem),
          () => reject(problem),
        );
    };

    try {
      parser = busboy({
        headers: request.headers,
        defParamCharset: 'utf8',
        limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: MAX_FIELDS + 1 },
      });
    } catch (error) {
      reject(new BadRequestException(`Malformed multipart body: ${(error as Error).message}`));
      return;
    }

    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        return fail(new BadRequestException(`The file part must be named 'file' (got '${name}')`));
      }
      const meter = new FileMeter(limits.maxBytes, limits.deniedTypes, info.filename);
      const stored = Promise.all([pipeline(stream, meter), storage.put(key, meter)]);
      stored.catch(fail);
      file = { meter, stored, name: info.filename };
    });
    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated)
        return fail(new BadRequestException(`Form field '${name}' is longer than ${MAX_FIELD_BYTES} bytes`));
      if (Object.hasOwn(fields, name)) return fail(new BadRequestException(`Form field '${name}' is given twice`));
      fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new BadRequestException("Exactly one file part named 'file' is accepted")));
    parser.on('fieldsLimit', () => fail(new BadRequestException(`At most ${MAX_FIELDS} form fields are accepted`)));
    parser.on('partsLimit', () => fail(new BadRequestException(`At most ${MAX_FIELDS + 1} parts are accepted`)));
    parser.on('error', fail);
    parser.on('close', () => {
      if (settled) return;
      if (!file) return fail(new BadRequestException("No file part: send the file as a form part named 'file'"));
      const { meter, stored, name } = file;
      stored.then(() => {
        if (settled) return;
        settled = true;
        resolve({ fields, fileName: name, facts: meter.facts() });
      }, fail);
    });
    request.on('close', () => {
      if (!request.complete) fail(new UploadAbortedError());
    });
    request.pipe(parser);
  });
}
