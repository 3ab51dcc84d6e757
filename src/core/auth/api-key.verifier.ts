import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { toIsoTimestamp } from '../repository/record-codec';
import { adminAccess } from '../model/access';
import { RequestActor } from '../model/record';
import { ApiKeyStore, StoredApiKey } from './api-key-store';
import { hashToken, looksLikeToken } from './api-key-tokens';

export type Verification = { ok: true; actor: RequestActor } | { ok: false; reason: string };

const MAX_CACHED_KEYS = 10_000;

/**
 * Checks bearer tokens against the stored hashes of API keys, looked up in the store that the
 * module owning the keys registers (`useStore`; the start fails without one). A verified key is trusted for
 * `API_KEY_CACHE_TTL_MS` (at most 5 s) before it is looked up again, so a revocation or an
 * expiry set on any instance stops the key everywhere within that time; `expiresAt` itself is
 * compared with the clock on every request.
 */
@Injectable()
export class ApiKeyVerifier implements OnApplicationBootstrap {
  private readonly cache = new Map<string, { row: StoredApiKey; until: number }>();
  private store?: ApiKeyStore;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  useStore(store: ApiKeyStore): void {
    this.store = store;
  }

  onApplicationBootstrap(): void {
    if (!this.store)
      throw new Error(
        'No API key store registered: every request would be refused (the apiKeys collection module provides it)',
      );
  }

  private async lookup(hash: string): Promise<StoredApiKey | undefined> {
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.until > now) return cached.row;
    const row = await this.store!.findByTokenHash(hash);
    if (!row) {
      this.cache.delete(hash);
      return undefined;
    }
    if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, { row, until: now + this.config.apiKeyCacheTtlMs });
    return row;
  }

  async verify(token: string): Promise<Verification> {
    if (!looksLikeToken(token)) return { ok: false, reason: 'Invalid API key' };
    const hash = hashToken(token);
    const row = await this.lookup(hash);
    // The lookup goes through an index on the hash of a 256-bit random token, which an attacker
    // cannot steer; the final comparison is constant-time all the same.
    if (!row || !timingSafeEqual(Buffer.from(row.tokenHash, 'hex'), Buffer.from(hash, 'hex'))) {
      return { ok: false, reason: 'Invalid API key' };
    }
    if (row.revokedAt !== null) return { ok: false, reason: 'API key revoked' };
    if (row.expiresAt !== null && Date.parse(toIsoTimestamp(row.expiresAt)!) <= Date.now()) {
      return { ok: false, reason: 'API key expired' };
    }
    return {
      ok: true,
      actor: { apiKeyId: row.id, apiKeyName: row.name, workspaceMemberId: null, access: adminAccess(row.name) },
    };
  }
}
