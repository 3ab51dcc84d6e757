import { hash, randomBytes } from 'node:crypto';

/** Prefix that makes a leaked token recognisable by secret scanners. */
export const TOKEN_PREFIX = 'crm_';

/** A new API token: the prefix and 32 random bytes (256 bits) in base64url. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * The stored form of a token: SHA-256, hex. Tokens carry 256 bits of randomness, so a fast hash
 * is the right tool (as for GitHub or Stripe keys); slow password hashes (argon2, bcrypt) guard
 * low-entropy secrets and would add their cost to every uncached request.
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Shape check before any lookup: prefix plus 43 base64url characters. */
export function looksLikeToken(token: string): boolean {
  return /^crm_[A-Za-z0-9_-]{43}$/.test(token);
}
