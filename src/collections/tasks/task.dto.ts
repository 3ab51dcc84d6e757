import { PartialType } from '@nestjs/swagger';
import {
  ActorField,
  DateTimeField,
  JoinColumnField,
  PositionField,
  RichTextField,
  RichTextV2Field,
  SelectField,
  TextField,
  type Actor,
  type RichTextV2,
} from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const TASK_STATUS_OPTIONS = ['TODO', 'IN_PROGRESS', 'DONE'] as const;

/** Task: the create body (every writable field, declared once). */
export class Task {
  @PositionField()
  position?: number;

  @TextField()
  title?: string;

  @RichTextField({ description: 'V0.40 rich-text body', deprecated: true, nullable: true })
  body?: string | null;

  @RichTextV2Field({ nullable: true, default: null })
  bodyV2?: RichTextV2 | null;

  @DateTimeField({ nullable: true, indexed: true })
  dueAt?: string | null;

  @SelectField(TASK_STATUS_OPTIONS, { nullable: true, default: 'TODO', indexed: true })
  status?: string | null;

  @ActorField({
    description: 'Who created the record: set by the server from the API key unless createdBy.source is given',
  })
  createdBy?: Actor;

  @JoinColumnField({
    name: 'assignee',
    target: 'workspaceMembers',
    inverse: 'assignedTasks',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  assigneeId?: string | null;
}

/** Task update body: every field optional (PATCH). */
export class TaskForUpdate extends PartialType(Task, { skipNullProperties: false }) {}

/** Task as returned: common fields, readable fields and relations. */
export class TaskForResponse extends RecordResponse(Task) {}
