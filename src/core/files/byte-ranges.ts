import type { ByteRange } from './file-storage';

/** What a `Range` header asks of a file of `size` bytes. */
export type RangeRequest = { kind: 'whole' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' };

const SINGLE = /^bytes=(\d*)-(\d*)$/;

/**
 * Reads a `Range` header (RFC 9110 section 14.1.2) for a file of `size` bytes. Grammar served:
 *   bytes=<first>-<last>   bytes=<first>-   bytes=-<suffix length>
 * A header of another unit, several ranges or malformed is ignored (the whole file, 200), as the
 * RFC allows; a single range that starts at or past the end (or an empty suffix, or any range of
 * an empty file) is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const match = SINGLE.exec(header.trim());
  if (!match) return { kind: 'whole' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' }; // malformed: ignored
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', range: { start, end } };
}
