import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** Blocklist: the create body (every writable field, declared once). */
export class Blocklist {
  @TextField({ description: 'Email or @domain to block' })
  handle?: string;

  @JoinColumnField({ name: 'workspaceMember', target: 'workspaceMembers', inverse: 'blocklist', onDelete: 'SET_NULL' })
  workspaceMemberId!: string;
}

/** Blocklist update body: every field optional (PATCH). */
export class BlocklistForUpdate extends PartialType(Blocklist, { skipNullProperties: false }) {}

/** Blocklist as returned: common fields, readable fields and relations. */
export class BlocklistForResponse extends RecordResponse(Blocklist) {}
