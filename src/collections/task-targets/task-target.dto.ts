import { PartialType } from '@nestjs/swagger';
import { JoinColumnField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** TaskTarget: the create body (every writable field, declared once). */
export class TaskTarget {
  @JoinColumnField({ name: 'task', target: 'tasks', inverse: 'taskTargets', onDelete: 'SET_NULL', nullable: true })
  taskId?: string | null;

  @JoinColumnField({ name: 'person', target: 'people', inverse: 'taskTargets', onDelete: 'CASCADE', nullable: true })
  personId?: string | null;

  @JoinColumnField({
    name: 'company',
    target: 'companies',
    inverse: 'taskTargets',
    onDelete: 'CASCADE',
    nullable: true,
  })
  companyId?: string | null;

  @JoinColumnField({
    name: 'opportunity',
    target: 'opportunities',
    inverse: 'taskTargets',
    onDelete: 'CASCADE',
    nullable: true,
  })
  opportunityId?: string | null;
}

/** TaskTarget update body: every field optional (PATCH). */
export class TaskTargetForUpdate extends PartialType(TaskTarget, { skipNullProperties: false }) {}

/** TaskTarget as returned: common fields, readable fields and relations. */
export class TaskTargetForResponse extends RecordResponse(TaskTarget) {}
