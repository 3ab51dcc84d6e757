import { PartialType } from '@nestjs/swagger';
import { ActorField, MultiSelectField, PositionField, TextField, type Actor } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const WORKFLOW_STATUSES_OPTIONS = ['DRAFT', 'ACTIVE', 'DEACTIVATED'] as const;

/** Workflow: the create body (every writable field, declared once). */
export class Workflow {
  @TextField()
  name?: string;

  @TextField({ description: 'TEXT holding a workflowVersion id', nullable: true })
  lastPublishedVersionId?: string | null;

  @MultiSelectField(WORKFLOW_STATUSES_OPTIONS, { nullable: true })
  statuses?: string[] | null;

  @PositionField()
  position?: number;

  @ActorField({
    description: 'Who created the record: set by the server from the API key unless createdBy.source is given',
  })
  createdBy?: Actor;
}

/** Workflow update body: every field optional (PATCH). */
export class WorkflowForUpdate extends PartialType(Workflow, { skipNullProperties: false }) {}

/** Workflow as returned: common fields, readable fields and relations. */
export class WorkflowForResponse extends RecordResponse(Workflow) {}
