import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** WorkflowEventListener: the create body (every writable field, declared once). */
export class WorkflowEventListener {
  @TextField({ description: 'E.g. "company.created"' })
  eventName?: string;

  @JoinColumnField({
    name: 'workflow',
    target: 'workflows',
    inverse: 'eventListeners',
    onDelete: 'CASCADE',
    nullable: true,
  })
  workflowId?: string | null;
}

/** WorkflowEventListener update body: every field optional (PATCH). */
export class WorkflowEventListenerForUpdate extends PartialType(WorkflowEventListener, { skipNullProperties: false }) {}

/** WorkflowEventListener as returned: common fields, readable fields and relations. */
export class WorkflowEventListenerForResponse extends RecordResponse(WorkflowEventListener) {}
