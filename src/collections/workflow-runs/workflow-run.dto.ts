import { PartialType } from '@nestjs/swagger';
import {
  ActorField,
  DateTimeField,
  JoinColumnField,
  PositionField,
  RawJsonField,
  SelectField,
  TextField,
  type Actor,
} from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const WORKFLOW_RUN_STATUS_OPTIONS = ['NOT_STARTED', 'RUNNING', 'COMPLETED', 'FAILED'] as const;

/** WorkflowRun: the create body (every writable field, declared once). */
export class WorkflowRun {
  @TextField()
  name?: string;

  @DateTimeField({ nullable: true })
  startedAt?: string | null;

  @DateTimeField({ nullable: true })
  endedAt?: string | null;

  @SelectField(WORKFLOW_RUN_STATUS_OPTIONS, { default: 'NOT_STARTED' })
  status?: string;

  @ActorField({
    description: 'Who created the record: set by the server from the API key unless createdBy.source is given',
  })
  createdBy?: Actor;

  @RawJsonField({ description: '{flow:{trigger,steps}, stepsOutput?, error?}', nullable: true })
  output?: unknown | null;

  @RawJsonField({ nullable: true })
  context?: unknown | null;

  @PositionField()
  position?: number;

  @JoinColumnField({ name: 'workflowVersion', target: 'workflowVersions', inverse: 'runs', onDelete: 'SET_NULL' })
  workflowVersionId!: string;

  @JoinColumnField({ name: 'workflow', target: 'workflows', inverse: 'runs', onDelete: 'CASCADE' })
  workflowId!: string;
}

/** WorkflowRun update body: every field optional (PATCH). */
export class WorkflowRunForUpdate extends PartialType(WorkflowRun, { skipNullProperties: false }) {}

/** WorkflowRun as returned: common fields, readable fields and relations. */
export class WorkflowRunForResponse extends RecordResponse(WorkflowRun) {}
