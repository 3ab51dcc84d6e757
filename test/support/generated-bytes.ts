import { createCipheriv, createHash } from 'node:crypto';
import { Readable } from 'node:stream';

const CHUNK = 64 * 1024;

/**
 * `size` deterministic pseudo-random bytes (the AES-128-CTR keystream of `seed`), made 64 KiB at
 * a time as they are read: a stream of any size without a buffer of that size.
 */
export function generatedBytes(size: number, seed = 1): Readable {
  const key = createHash('sha256').update(`seed ${seed}`).digest().subarray(0, 16);
  const cipher = createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
  const zeros = Buffer.alloc(CHUNK);
  let left = size;
  return new Readable({
    read() {
      if (left === 0) {
        this.push(null);
        return;
      }
      const n = Math.min(left, CHUNK);
      left -= n;
      this.push(cipher.update(zeros.subarray(0, n)));
    },
  });
}

/** The bytes `start` to `end` (included) of `generatedBytes(size, seed)`. */
export async function generatedRange(size: number, seed: number, start: number, end: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let offset = 0;
  for await (const chunk of generatedBytes(Math.min(size, end + 1), seed)) {
    const buffer = chunk as Buffer;
    if (offset + buffer.length > start) parts.push(buffer.subarray(Math.max(0, start - offset)));
    offset += buffer.length;
  }
  return Buffer.concat(parts);
}

/** The SHA-256 (hex) and length of everything `stream` yields, read as it flows. */
export async function digestOf(stream: Readable): Promise<{ sha256: string; length: number }> {
  const hash = createHash('sha256');
  let length = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    length += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), length };
}

/** Length and SHA-256 of `bytes`: what tests compare (a diff of two large buffers would exhaust jest's memory). */
export function summaryOf(bytes: Buffer): { length: number; sha256: string } {
  return { length: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}
