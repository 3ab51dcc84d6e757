import { randomUUID } from 'node:crypto';
import { InvalidObjectKeyError } from './file-storage-errors';

/**
 * The shape of every object key: `ab/cd/<uuid>`, the first four hex digits of a random UUID as
 * two folder levels (at most 256 entries per folder level on disk; spread S3 prefixes).
 */
const OBJECT_KEY =
  /^([0-9a-f]{2})\/([0-9a-f]{2})\/(\1\2[0-9a-f]{4}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})$/;

/** A new object key, made by the service alone (never from a client's file name). */
export function newObjectKey(): string {
  const id = randomUUID();
  return `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
}

/** True when `key` has the shape `newObjectKey()` makes (only hex digits, dashes and two slashes). */
export function isObjectKey(key: string): boolean {
  return OBJECT_KEY.test(key);
}

/** Throws InvalidObjectKeyError unless `isObjectKey(key)`. */
export function assertObjectKey(key: string): void {
  if (typeof key !== 'string' || !isObjectKey(key)) throw new InvalidObjectKeyError(String(key));
}

/**
 * The object key of the file of a record whose id is a random (version 4) UUID: `ab/cd/<id>`.
 * The key follows from the id alone, so nothing a client writes (a `fullPath`) ever chooses which
 * object is served or removed.
 */
export function objectKeyFor(id: string): string {
  const lower = id.toLowerCase();
  const key = `${lower.slice(0, 2)}/${lower.slice(2, 4)}/${lower}`;
  assertObjectKey(key);
  return key;
}
