import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { toIsoTimestamp } from '../repository/record-codec';
import { accessOf, compileGrants, CompiledGrants } from '../access/compile-access';
import { GrantInput } from '../access/grants';
import { Access } from '../model/access';
import { ActorDirectory } from '../model/actor-directory';
import { CollectionCatalog } from '../model/collection-catalog';
import { RequestActor } from '../model/record';
import { ApiKeyStore, StoredApiKey } from './api-key-store';
import { hashToken, looksLikeToken } from './api-key-tokens';

export type Verification = { ok: true; actor: RequestActor } | { ok: false; reason: string };

const MAX_CACHED_KEYS = 10_000;

/**
 * Checks bearer tokens against the stored hashes of API keys, looked up in the store that the
 * module owning the keys registers (`useStore`; the start fails without one), with the access of
 * their role (API.md section 14). A verified key is trusted for `API_KEY_CACHE_TTL_MS` (at most
 * 5 s) before it is looked up again, so a revocation, an expiry, a change of role or of a role's
 * grants on any instance holds everywhere within that time; `expiresAt` itself is compared with the
 * clock on every request.
 */
@Injectable()
export class ApiKeyVerifier implements OnApplicationBootstrap, ActorDirectory {
  private readonly cache = new Map<string, { row: StoredApiKey; access: Access; until: number }>();
  /** The compiled grants of each role's permissions (the same text compiles to the same grants). */
  private readonly grants = new Map<string, CompiledGrants>();
  private store?: ApiKeyStore;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly catalog: CollectionCatalog,
  ) {}

  private grantsOf(permissions: unknown): CompiledGrants {
    const key = JSON.stringify(permissions);
    let grants = this.grants.get(key);
    if (!grants) {
      if (this.grants.size >= MAX_CACHED_KEYS) this.grants.clear();
      grants = compileGrants(this.catalog, permissions as GrantInput[]);
      this.grants.set(key, grants);
    }
    return grants;
  }

  useStore(store: ApiKeyStore): void {
    this.store = store;
  }

  onApplicationBootstrap(): void {
    if (!this.store)
      throw new Error(
        'No API key store registered: every request would be refused (the apiKeys collection module provides it)',
      );
  }

  /** The key of a token hash and what it may do, from the cache or the store. */
  private async lookup(hash: string): Promise<{ row: StoredApiKey; access: Access } | undefined> {
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.until > now) return cached;
    const row = await this.store!.findByTokenHash(hash);
    if (!row) {
      this.cache.delete(hash);
      return undefined;
    }
    const found = { row, access: accessOf(row.name, row.role, (permissions) => this.grantsOf(permissions)) };
    if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, { ...found, until: now + this.config.apiKeyCacheTtlMs });
    return found;
  }

  /**
   * The actor of a key by its id, for work done later on its behalf (an import job): the key's
   * current access, refused like a request when the key is gone, revoked or expired.
   */
  async actorOf(apiKeyId: string): Promise<Verification> {
    const row = await this.store!.findById(apiKeyId);
    if (!row) return { ok: false, reason: 'API key deleted' };
    return this.checked(
      row,
      accessOf(row.name, row.role, (permissions) => this.grantsOf(permissions)),
    );
  }

  private checked(row: StoredApiKey, access: Access): Verification {
    if (row.revokedAt !== null) return { ok: false, reason: 'API key revoked' };
    if (row.expiresAt !== null && Date.parse(toIsoTimestamp(row.expiresAt)!) <= Date.now()) {
      return { ok: false, reason: 'API key expired' };
    }
    return { ok: true, actor: { apiKeyId: row.id, apiKeyName: row.name, workspaceMemberId: null, access } };
  }

  async verify(token: string): Promise<Verification> {
    if (!looksLikeToken(token)) return { ok: false, reason: 'Invalid API key' };
    const hash = hashToken(token);
    const found = await this.lookup(hash);
    const row = found?.row;
    // The lookup goes through an index on the hash of a 256-bit random token, which an attacker
    // cannot steer; the final comparison is constant-time all the same.
    if (!row || !timingSafeEqual(Buffer.from(row.tokenHash, 'hex'), Buffer.from(hash, 'hex'))) {
      return { ok: false, reason: 'Invalid API key' };
    }
    return this.checked(row, found!.access);
  }
}
