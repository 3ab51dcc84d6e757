import { Column, Index } from 'typeorm';
import { generateToken, hashToken } from '../../core/auth/api-key-tokens';
import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { ApiKey, ApiKeyForResponse, ApiKeyForUpdate } from './api-key.dto';

@RecordEntity({ table: 'apiKey', fields: ApiKey })
export class ApiKeyEntity {
  /** SHA-256 of the bearer token (hex); the token itself is never stored. */
  @Index({ unique: true })
  @Column({ type: 'text', nullable: true })
  tokenHash?: string | null;
}

export const apiKeys = defineCollection({
  plural: 'apiKeys',
  description: 'API keys: bearer tokens of the REST and MCP clients (shown once, stored as hashes)',
  singular: 'apiKey',
  pascal: 'ApiKey',
  pascalPlural: 'ApiKeys',
  entity: ApiKeyEntity,
  create: ApiKey,
  update: ApiKeyForUpdate,
  response: ApiKeyForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [],
  timeline: false,
  // the power to mint keys: no grant opens it
  adminOnly: true,
  hooks: {
    // apiKeys own the bearer tokens: each create generates one, returns it once, stores its hash.
    hiddenColumns: ['tokenHash'],
    beforeCreate: () => {
      const token = generateToken();
      return { hidden: { tokenHash: hashToken(token) }, response: { token } };
    },
  },
});
