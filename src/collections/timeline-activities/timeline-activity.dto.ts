import { PartialType } from '@nestjs/swagger';
import { DateTimeField, JoinColumnField, RawJsonField, TextField, UuidField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** TimelineActivity: the create body (every writable field, declared once). */
export class TimelineActivity {
  @DateTimeField({ description: 'Default now()', default: 'now' })
  happensAt?: string;

  @TextField({ description: 'Event name e.g. "company.created", "linked-note.updated"' })
  name?: string;

  @RawJsonField({ description: 'Event details (diff/before/after)', nullable: true })
  properties?: unknown | null;

  @TextField()
  linkedRecordCachedName?: string;

  @UuidField({ nullable: true })
  linkedRecordId?: string | null;

  @UuidField({ nullable: true })
  linkedObjectMetadataId?: string | null;

  @JoinColumnField({
    name: 'workspaceMember',
    target: 'workspaceMembers',
    inverse: 'timelineActivities',
    onDelete: 'CASCADE',
    nullable: true,
  })
  workspaceMemberId?: string | null;

  @JoinColumnField({
    name: 'person',
    target: 'people',
    inverse: 'timelineActivities',
    onDelete: 'CASCADE',
    nullable: true,
  })
  personId?: string | null;

  @JoinColumnField({
    name: 'company',
    target: 'companies',
    inverse: 'timelineActivities',
    onDelete: 'CASCADE',
    nullable: true,
  })
  companyId?: string | null;

  @JoinColumnField({
    name: 'opportunity',
    target: 'opportunities',
    inverse: 'timelineActivities',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  opportunityId?: string | null;

  @JoinColumnField({
    name: 'note',
    target: 'notes',
    inverse: 'timelineActivities',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  noteId?: string | null;

  @JoinColumnField({
    name: 'task',
    target: 'tasks',
    inverse: 'timelineActivities',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  taskId?: string | null;

  @JoinColumnField({
    name: 'workflow',
    target: 'workflows',
    inverse: 'timelineActivities',
    onDelete: 'CASCADE',
    nullable: true,
  })
  workflowId?: string | null;

  @JoinColumnField({
    name: 'workflowVersion',
    target: 'workflowVersions',
    inverse: 'timelineActivities',
    onDelete: 'CASCADE',
    nullable: true,
  })
  workflowVersionId?: string | null;

  @JoinColumnField({
    name: 'workflowRun',
    target: 'workflowRuns',
    inverse: 'timelineActivities',
    onDelete: 'CASCADE',
    nullable: true,
  })
  workflowRunId?: string | null;
}

/** TimelineActivity update body: every field optional (PATCH). */
export class TimelineActivityForUpdate extends PartialType(TimelineActivity, { skipNullProperties: false }) {}

/** TimelineActivity as returned: common fields, readable fields and relations. */
export class TimelineActivityForResponse extends RecordResponse(TimelineActivity) {}
