import { timingSafeEqual } from 'node:crypto';

/**
 * Whether a secret a client sent is the expected text, compared in constant time (a forger learns
 * nothing from how long the comparison took). Texts, not decoded bytes: a base64url signature has
 * unused bits in its last character, so several texts decode to the same bytes, and only the one
 * the service wrote is accepted.
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
