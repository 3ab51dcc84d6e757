import { Injectable, OnModuleInit } from '@nestjs/common';
import { ApiKeyStore, StoredApiKey } from '../../core/auth/api-key-store';
import { ApiKeyVerifier } from '../../core/auth/api-key.verifier';
import { Db } from '../../core/database/db';
import { Repositories } from '../../core/repository/repositories';

/**
 * The statements of the apiKeys table beyond the generic ones: the API keys the global guard
 * checks tokens against, read from this collection's table by the
 * hidden `tokenHash` column (unique index). Registered with the verifier at start-up.
 */
@Injectable()
export class ApiKeyTable implements ApiKeyStore, OnModuleInit {
  private readonly sql: string;

  constructor(
    private readonly db: Db,
    private readonly verifier: ApiKeyVerifier,
    repositories: Repositories,
  ) {
    const table = repositories.get('apiKeys').reads.table.name;
    this.sql = `SELECT "id", "name", "tokenHash", "expiresAt", "revokedAt" FROM ${table} WHERE "tokenHash" = $1 AND "deletedAt" IS NULL`;
  }

  onModuleInit(): void {
    this.verifier.useStore(this);
  }

  async findByTokenHash(hash: string): Promise<StoredApiKey | undefined> {
    const [row] = await this.db.query<StoredApiKey>(this.sql, [hash], 'auth:api-key-by-hash');
    return row;
  }
}
