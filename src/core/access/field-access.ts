import { isPlainObject } from '../fields/field-rules';
import type { Access } from '../model/access';
import type { Row } from '../model/record';
import { badRequest } from '../validation/record-body';

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

/**
 * A raw write body (a record, or an array of them when `indexed`) checked by its field names alone,
 * before any value is validated: a 400 naming each hidden or read-only field it sets (`[i]` first
 * for an array), whatever its value, so a key learns no rule of a field it may not write. Items
 * that are not objects are left to the validation.
 */
export function refuseUnwritable(access: Access, plural: string, body: unknown, indexed: boolean): void {
  if (access.admin) return;
  const items = indexed ? (Array.isArray(body) ? body : []) : [body];
  const problems = items.flatMap((item, i) =>
    isPlainObject(item) ? writeProblems(access, plural, item).map((m) => (indexed ? `[${i}] ${m}` : m)) : [],
  );
  if (problems.length > 0) throw badRequest(problems);
}
