import type { RoleOfKey } from '../access/compile-access';

/** An API key as the guard needs it. */
export interface StoredApiKey {
  id: string;
  name: string;
  /** SHA-256 of the bearer token (hex). */
  tokenHash: string;
  expiresAt: string | null;
  revokedAt: string | null;
  /** Its role, null when it has none (an admin key). */
  role: RoleOfKey | null;
}

/** Where API keys are looked up by token hash (requests) or id (background jobs run for a key): provided by the module that owns the keys. */
export interface ApiKeyStore {
  findByTokenHash(hash: string): Promise<StoredApiKey | undefined>;
  findById(id: string): Promise<StoredApiKey | undefined>;
}
