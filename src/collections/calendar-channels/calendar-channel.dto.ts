import { PartialType } from '@nestjs/swagger';
import { BooleanField, DateTimeField, JoinColumnField, NumberField, SelectField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const CALENDAR_CHANNEL_SYNC_STATUS_OPTIONS = [
  'ONGOING',
  'NOT_SYNCED',
  'ACTIVE',
  'FAILED_INSUFFICIENT_PERMISSIONS',
  'FAILED_UNKNOWN',
] as const;
export const CALENDAR_CHANNEL_SYNC_STAGE_OPTIONS = [
  'FULL_CALENDAR_EVENT_LIST_FETCH_PENDING',
  'PARTIAL_CALENDAR_EVENT_LIST_FETCH_PENDING',
  'CALENDAR_EVENT_LIST_FETCH_ONGOING',
  'CALENDAR_EVENTS_IMPORT_PENDING',
  'CALENDAR_EVENTS_IMPORT_ONGOING',
  'FAILED',
] as const;
export const CALENDAR_CHANNEL_VISIBILITY_OPTIONS = ['METADATA', 'SHARE_EVERYTHING'] as const;
export const CALENDAR_CHANNEL_CONTACT_AUTO_CREATION_POLICY_OPTIONS = [
  'AS_PARTICIPANT_AND_ORGANIZER',
  'AS_PARTICIPANT',
  'AS_ORGANIZER',
  'NONE',
] as const;

/** CalendarChannel: the create body (every writable field, declared once). */
export class CalendarChannel {
  @TextField()
  handle?: string;

  @SelectField(CALENDAR_CHANNEL_SYNC_STATUS_OPTIONS, { nullable: true })
  syncStatus?: string | null;

  @SelectField(CALENDAR_CHANNEL_SYNC_STAGE_OPTIONS, { default: 'FULL_CALENDAR_EVENT_LIST_FETCH_PENDING' })
  syncStage?: string;

  @SelectField(CALENDAR_CHANNEL_VISIBILITY_OPTIONS, { default: 'SHARE_EVERYTHING' })
  visibility?: string;

  @BooleanField({ default: true })
  isContactAutoCreationEnabled?: boolean;

  @SelectField(CALENDAR_CHANNEL_CONTACT_AUTO_CREATION_POLICY_OPTIONS, { default: 'AS_PARTICIPANT_AND_ORGANIZER' })
  contactAutoCreationPolicy?: string;

  @BooleanField({ default: true })
  isSyncEnabled?: boolean;

  @TextField({ description: 'Provider sync token' })
  syncCursor?: string;

  @DateTimeField({ nullable: true })
  syncedAt?: string | null;

  @DateTimeField({ nullable: true })
  syncStageStartedAt?: string | null;

  @NumberField({ default: 0 })
  throttleFailureCount?: number;

  @JoinColumnField({
    name: 'connectedAccount',
    target: 'connectedAccounts',
    inverse: 'calendarChannels',
    onDelete: 'CASCADE',
  })
  connectedAccountId!: string;
}

/** CalendarChannel update body: every field optional (PATCH). */
export class CalendarChannelForUpdate extends PartialType(CalendarChannel, { skipNullProperties: false }) {}

/** CalendarChannel as returned: common fields, readable fields and relations. */
export class CalendarChannelForResponse extends RecordResponse(CalendarChannel) {}
