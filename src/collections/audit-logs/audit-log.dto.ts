import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, RawJsonField, TextField, UuidField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** AuditLog: the create body (every writable field, declared once). */
export class AuditLog {
  @TextField({ description: 'Event name/type, e.g. "company.created"' })
  name?: string;

  @RawJsonField({
    description: 'Event details: {after} / {before, after, diff} / {before}',
    nullable: true,
    shape: 'object',
  })
  properties?: unknown | null;

  @RawJsonField({ description: 'Context object, e.g. {apiKeyId}', nullable: true, shape: 'object' })
  context?: unknown | null;

  @TextField()
  objectName?: string;

  @TextField({ description: 'Plain string (TEXT), not a UUID field and not a relation' })
  objectMetadataId?: string;

  @UuidField({ nullable: true })
  recordId?: string | null;

  @JoinColumnField({
    name: 'workspaceMember',
    target: 'workspaceMembers',
    inverse: 'auditLogs',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  workspaceMemberId?: string | null;
}

/** AuditLog update body: every field optional (PATCH). */
export class AuditLogForUpdate extends PartialType(AuditLog, { skipNullProperties: false }) {}

/** AuditLog as returned: common fields, readable fields and relations. */
export class AuditLogForResponse extends RecordResponse(AuditLog) {}
