import { PartialType } from '@nestjs/swagger';
import { FullNameField, SelectField, TextField, UuidField, type FullName } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const WORKSPACE_MEMBER_DATE_FORMAT_OPTIONS = ['SYSTEM', 'MONTH_FIRST', 'DAY_FIRST', 'YEAR_FIRST'] as const;
export const WORKSPACE_MEMBER_TIME_FORMAT_OPTIONS = ['SYSTEM', 'HOUR_24', 'HOUR_12'] as const;

/** WorkspaceMember: the create body (every writable field, declared once). */
export class WorkspaceMember {
  @FullNameField()
  name?: FullName;

  @TextField({ default: 'System' })
  colorScheme?: string;

  @TextField({ default: 'en' })
  locale?: string;

  @TextField()
  avatarUrl?: string;

  @TextField()
  userEmail?: string;

  @UuidField({ description: 'Core user id (outside the workspace schema)' })
  userId!: string;

  @TextField({ default: 'system' })
  timeZone?: string;

  @SelectField(WORKSPACE_MEMBER_DATE_FORMAT_OPTIONS, { default: 'SYSTEM' })
  dateFormat?: string;

  @SelectField(WORKSPACE_MEMBER_TIME_FORMAT_OPTIONS, { default: 'SYSTEM' })
  timeFormat?: string;
}

/** WorkspaceMember update body: every field optional (PATCH). */
export class WorkspaceMemberForUpdate extends PartialType(WorkspaceMember, { skipNullProperties: false }) {}

/** WorkspaceMember as returned: common fields, readable fields and relations. */
export class WorkspaceMemberForResponse extends RecordResponse(WorkspaceMember) {}
