import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, SelectField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const MESSAGE_PARTICIPANT_ROLE_OPTIONS = ['from', 'to', 'cc', 'bcc'] as const;

/** MessageParticipant: the create body (every writable field, declared once). */
export class MessageParticipant {
  @SelectField(MESSAGE_PARTICIPANT_ROLE_OPTIONS, { default: 'from' })
  role?: string;

  @TextField({ description: 'Email address' })
  handle?: string;

  @TextField()
  displayName?: string;

  @JoinColumnField({ name: 'message', target: 'messages', inverse: 'messageParticipants', onDelete: 'CASCADE' })
  messageId!: string;

  @JoinColumnField({
    name: 'person',
    target: 'people',
    inverse: 'messageParticipants',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  personId?: string | null;

  @JoinColumnField({
    name: 'workspaceMember',
    target: 'workspaceMembers',
    inverse: 'messageParticipants',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  workspaceMemberId?: string | null;
}

/** MessageParticipant update body: every field optional (PATCH). */
export class MessageParticipantForUpdate extends PartialType(MessageParticipant, { skipNullProperties: false }) {}

/** MessageParticipant as returned: common fields, readable fields and relations. */
export class MessageParticipantForResponse extends RecordResponse(MessageParticipant) {}
