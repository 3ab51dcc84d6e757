import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, PositionField, RawJsonField, SelectField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const WORKFLOW_VERSION_STATUS_OPTIONS = ['DRAFT', 'ACTIVE', 'DEACTIVATED', 'ARCHIVED'] as const;

/** WorkflowVersion: the create body (every writable field, declared once). */
export class WorkflowVersion {
  @TextField()
  name?: string;

  @RawJsonField({ description: 'Trigger definition object {type, settings, ...}', nullable: true })
  trigger?: unknown | null;

  @RawJsonField({ description: 'Array of step/action objects', nullable: true })
  steps?: unknown | null;

  @SelectField(WORKFLOW_VERSION_STATUS_OPTIONS, { default: 'DRAFT' })
  status?: string;

  @PositionField()
  position?: number;

  @JoinColumnField({ name: 'workflow', target: 'workflows', inverse: 'versions', onDelete: 'CASCADE', nullable: true })
  workflowId?: string | null;
}

/** WorkflowVersion update body: every field optional (PATCH). */
export class WorkflowVersionForUpdate extends PartialType(WorkflowVersion, { skipNullProperties: false }) {}

/** WorkflowVersion as returned: common fields, readable fields and relations. */
export class WorkflowVersionForResponse extends RecordResponse(WorkflowVersion) {}
