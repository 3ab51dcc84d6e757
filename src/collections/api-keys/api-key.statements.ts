import { Injectable, OnModuleInit } from '@nestjs/common';
import { ApiKeyStore, StoredApiKey } from '../../core/auth/api-key-store';
import { ApiKeyVerifier } from '../../core/auth/api-key.verifier';
import { Db } from '../../core/database/db';
import { Repositories } from '../../core/repository/repositories';

/**
 * The statements of the apiKeys table beyond the generic ones: the API keys the global guard
 * checks tokens against, read from this collection's table by the hidden `tokenHash` column
 * (unique index), with their role (API.md section 14): a change of a role or of a key's `roleId`
 * takes effect with the next lookup, like a revocation. Registered with the verifier at start-up.
 */
@Injectable()
export class ApiKeyTable implements ApiKeyStore, OnModuleInit {
  private readonly sql: string;
  private readonly byIdSql: string;

  constructor(
    private readonly db: Db,
    private readonly verifier: ApiKeyVerifier,
    repositories: Repositories,
  ) {
    const keys = repositories.get('apiKeys').reads.table.name;
    const roles = repositories.get('roles').reads.table.name;
    this.sql =
      `SELECT k."id", k."name", k."tokenHash", k."expiresAt", k."revokedAt", ` +
      `CASE WHEN r."id" IS NULL THEN NULL ELSE json_build_object('admin', r."admin", 'permissions', r."permissions", 'deleted', r."deletedAt" IS NOT NULL) END AS "role" ` +
      `FROM ${keys} k LEFT JOIN ${roles} r ON r."id" = k."roleId" WHERE k."tokenHash" = $1 AND k."deletedAt" IS NULL`;
    this.byIdSql = this.sql.replace('k."tokenHash" = $1', 'k."id" = $1');
  }

  onModuleInit(): void {
    this.verifier.useStore(this);
  }

  async findByTokenHash(hash: string): Promise<StoredApiKey | undefined> {
    const [row] = await this.db.query<StoredApiKey>(this.sql, [hash], 'auth:api-key-by-hash');
    return row;
  }

  async findById(id: string): Promise<StoredApiKey | undefined> {
    const [row] = await this.db.query<StoredApiKey>(this.byIdSql, [id], 'auth:api-key-by-id');
    return row;
  }
}
