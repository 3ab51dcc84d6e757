import { PartialType } from '@nestjs/swagger';
import { ArrayField, DateTimeField, JoinColumnField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** ConnectedAccount: the create body (every writable field, declared once). */
export class ConnectedAccount {
  @TextField({ description: 'Account email/handle' })
  handle?: string;

  @TextField({ description: 'Provider of the account, e.g. google or microsoft' })
  provider?: string;

  // OAuth tokens: encrypted at rest (AES-256-GCM), returned in clear as the published API shows them.
  @TextField({ encrypted: true })
  accessToken?: string;

  @TextField({ encrypted: true })
  refreshToken?: string;

  @TextField()
  lastSyncHistoryId?: string;

  @DateTimeField({ nullable: true })
  authFailedAt?: string | null;

  @TextField({ description: 'Plain string (comma separated aliases)' })
  handleAliases?: string;

  @ArrayField({ description: 'Array of strings (text[])', nullable: true })
  scopes?: string[] | null;

  @JoinColumnField({
    name: 'accountOwner',
    target: 'workspaceMembers',
    inverse: 'connectedAccounts',
    onDelete: 'CASCADE',
  })
  accountOwnerId!: string;
}

/** ConnectedAccount update body: every field optional (PATCH). */
export class ConnectedAccountForUpdate extends PartialType(ConnectedAccount, { skipNullProperties: false }) {}

/** ConnectedAccount as returned: common fields, readable fields and relations. */
export class ConnectedAccountForResponse extends RecordResponse(ConnectedAccount) {}
