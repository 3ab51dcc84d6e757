import { createHash, Hash } from 'node:crypto';
import { Transform, TransformCallback } from 'node:stream';
import { TextCheck, textTypeFor } from './text-types';

/** How many first bytes the type detection reads (file-type's own need). */
export const SNIFF_BYTES = 4100;

/** The type of content whose bytes match no known format. */
export const UNKNOWN_TYPE = 'application/octet-stream';

/** The stream is over FileMeter's `maxBytes`: the upload stops there (a 413). */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`File is larger than the limit of ${maxBytes} bytes (FILE_MAX_BYTES)`);
    this.name = 'FileTooLargeError';
  }
}

/** The type detected from the bytes is refused (a 415). */
export class DeniedFileTypeError extends Error {
  constructor(readonly mimeType: string) {
    super(`Files of type ${mimeType} are not accepted (FILE_DENIED_TYPES)`);
    this.name = 'DeniedFileTypeError';
  }
}

/** What the meter learnt of the bytes that went through it. */
export interface FileFacts {
  size: number;
  /** `sha256:<hex>` */
  checksum: string;
  /**
   * Detected from the first bytes (magic numbers); else, for UTF-8 text without NUL, a text type
   * (textTypeFor); else `application/octet-stream`.
   */
  mimeType: string;
}

/**
 * The media type of content starting with `head` (file-type's magic numbers; the declared type
 * of a client is never consulted). file-type is ESM only: loaded with import(), which the
 * node16 module setting keeps as is (Node's require(esm) and jest's module loader both serve it).
 */
export async function detectType(head: Buffer): Promise<string> {
  if (head.length === 0) return UNKNOWN_TYPE;
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(head);
  return detected?.mime ?? UNKNOWN_TYPE;
}

/**
 * A pass-through stream between an upload and the storage, counting, hashing (SHA-256) and typing
 * the bytes as they flow: it fails with FileTooLargeError as soon as more than `maxBytes` arrive
 * and with DeniedFileTypeError once the first bytes show a denied type, before passing them on.
 * Bytes no magic number matches are checked for UTF-8 text as they flow (TextCheck); their type,
 * a text type from `fileName`'s extension or `application/octet-stream`, is known (and checked
 * against the denied types) at the end. Only the first SNIFF_BYTES are held (for the detection);
 * nothing else is buffered.
 */
export class FileMeter extends Transform {
  private readonly hash: Hash = createHash('sha256');
  private size = 0;
  private head: Buffer[] = [];
  private headLength = 0;
  private type?: string;
  private readonly text = new TextCheck();

  constructor(
    private readonly maxBytes: number,
    private readonly deniedTypes: ReadonlySet<string>,
    private readonly fileName?: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return done(new FileTooLargeError(this.maxBytes));
    this.hash.update(chunk);
    if (this.type === undefined || this.type === UNKNOWN_TYPE) this.text.feed(chunk);
    if (this.type !== undefined) return done(null, chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SNIFF_BYTES) return done();
    // the held first bytes go on once their type is known and allowed
    this.sniff().then(() => done(null, this.release()), done);
  }

  override _flush(done: TransformCallback): void {
    this.finish().then(() => done(null, this.release()), done);
  }

  /** A type from magic numbers is checked at once; an unknown one once every byte was seen. */
  private async sniff(): Promise<void> {
    const type = await detectType(Buffer.concat(this.head).subarray(0, SNIFF_BYTES));
    this.type = type === UNKNOWN_TYPE ? type : this.allowed(type);
  }

  private async finish(): Promise<void> {
    if (this.type === undefined) await this.sniff();
    if (this.type === UNKNOWN_TYPE)
      this.type = this.allowed(this.text.end() ? textTypeFor(this.fileName) : UNKNOWN_TYPE);
  }

  /** `type`, unless its essence (the part before any `;`) is a denied type. */
  private allowed(type: string): string {
    const essence = type.split(';')[0];
    if (this.deniedTypes.has(essence)) throw new DeniedFileTypeError(essence);
    return type;
  }

  private release(): Buffer {
    const held = Buffer.concat(this.head);
    this.head = [];
    return held;
  }

  /** Size, checksum and type once the stream has ended. */
  facts(): FileFacts {
    return { size: this.size, checksum: `sha256:${this.hash.digest('hex')}`, mimeType: this.type ?? UNKNOWN_TYPE };
  }
}
