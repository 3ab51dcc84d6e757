import { PartialType } from '@nestjs/swagger';
import { BooleanField, JoinColumnField, SelectField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const CALENDAR_EVENT_PARTICIPANT_RESPONSE_STATUS_OPTIONS = [
  'NEEDS_ACTION',
  'DECLINED',
  'TENTATIVE',
  'ACCEPTED',
] as const;

/** CalendarEventParticipant: the create body (every writable field, declared once). */
export class CalendarEventParticipant {
  @TextField({ description: 'Participant email' })
  handle?: string;

  @TextField()
  displayName?: string;

  @BooleanField({ default: false })
  isOrganizer?: boolean;

  @SelectField(CALENDAR_EVENT_PARTICIPANT_RESPONSE_STATUS_OPTIONS, { default: 'NEEDS_ACTION' })
  responseStatus?: string;

  @JoinColumnField({
    name: 'calendarEvent',
    target: 'calendarEvents',
    inverse: 'calendarEventParticipants',
    onDelete: 'CASCADE',
  })
  calendarEventId!: string;

  @JoinColumnField({
    name: 'person',
    target: 'people',
    inverse: 'calendarEventParticipants',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  personId?: string | null;

  @JoinColumnField({
    name: 'workspaceMember',
    target: 'workspaceMembers',
    inverse: 'calendarEventParticipants',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  workspaceMemberId?: string | null;
}

/** CalendarEventParticipant update body: every field optional (PATCH). */
export class CalendarEventParticipantForUpdate extends PartialType(CalendarEventParticipant, {
  skipNullProperties: false,
}) {}

/** CalendarEventParticipant as returned: common fields, readable fields and relations. */
export class CalendarEventParticipantForResponse extends RecordResponse(CalendarEventParticipant) {}
