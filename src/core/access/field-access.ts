import type { Access } from '../model/access';
import type { Row } from '../model/record';

/**
 * Which fields a key may write (API.md section 14): a hidden or read-only field in a write body is
 * a 400 `Field '<name>' is not writable`. What it may read is checked by the query language
 * (src/core/model/readable-fields.ts).
 */

/** The problems of a write body for the key: each hidden or read-only field it sets. */
export function writeProblems(access: Access, plural: string, record: Row): string[] {
  if (access.admin) return [];
  const grant = access.grant(plural);
  if (!grant) return [];
  return Object.keys(record)
    .filter((name) => grant.hidden.has(name) || grant.readOnly.has(name))
    .map((name) => `Field '${name}' is not writable`);
}
