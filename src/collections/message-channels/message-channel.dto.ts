import { PartialType } from '@nestjs/swagger';
import { BooleanField, DateTimeField, JoinColumnField, NumberField, SelectField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const MESSAGE_CHANNEL_VISIBILITY_OPTIONS = ['METADATA', 'SUBJECT', 'SHARE_EVERYTHING'] as const;
export const MESSAGE_CHANNEL_TYPE_OPTIONS = ['email', 'sms'] as const;
export const MESSAGE_CHANNEL_CONTACT_AUTO_CREATION_POLICY_OPTIONS = ['SENT_AND_RECEIVED', 'SENT', 'NONE'] as const;
export const MESSAGE_CHANNEL_SYNC_STATUS_OPTIONS = [
  'ONGOING',
  'NOT_SYNCED',
  'ACTIVE',
  'FAILED_INSUFFICIENT_PERMISSIONS',
  'FAILED_UNKNOWN',
] as const;
export const MESSAGE_CHANNEL_SYNC_STAGE_OPTIONS = [
  'FULL_MESSAGE_LIST_FETCH_PENDING',
  'PARTIAL_MESSAGE_LIST_FETCH_PENDING',
  'MESSAGE_LIST_FETCH_ONGOING',
  'MESSAGES_IMPORT_PENDING',
  'MESSAGES_IMPORT_ONGOING',
  'FAILED',
] as const;

/** MessageChannel: the create body (every writable field, declared once). */
export class MessageChannel {
  @SelectField(MESSAGE_CHANNEL_VISIBILITY_OPTIONS, { default: 'SHARE_EVERYTHING' })
  visibility?: string;

  @TextField()
  handle?: string;

  @SelectField(MESSAGE_CHANNEL_TYPE_OPTIONS, { default: 'email' })
  type?: string;

  @BooleanField({ default: true })
  isContactAutoCreationEnabled?: boolean;

  @SelectField(MESSAGE_CHANNEL_CONTACT_AUTO_CREATION_POLICY_OPTIONS, { default: 'SENT' })
  contactAutoCreationPolicy?: string;

  @BooleanField({ default: true })
  excludeNonProfessionalEmails?: boolean;

  @BooleanField({ default: true })
  excludeGroupEmails?: boolean;

  @BooleanField({ default: true })
  isSyncEnabled?: boolean;

  @TextField()
  syncCursor?: string;

  @DateTimeField({ nullable: true })
  syncedAt?: string | null;

  @SelectField(MESSAGE_CHANNEL_SYNC_STATUS_OPTIONS, { nullable: true })
  syncStatus?: string | null;

  @SelectField(MESSAGE_CHANNEL_SYNC_STAGE_OPTIONS, { default: 'FULL_MESSAGE_LIST_FETCH_PENDING' })
  syncStage?: string;

  @DateTimeField({ nullable: true })
  syncStageStartedAt?: string | null;

  @NumberField({ default: 0 })
  throttleFailureCount?: number;

  @JoinColumnField({
    name: 'connectedAccount',
    target: 'connectedAccounts',
    inverse: 'messageChannels',
    onDelete: 'CASCADE',
  })
  connectedAccountId!: string;
}

/** MessageChannel update body: every field optional (PATCH). */
export class MessageChannelForUpdate extends PartialType(MessageChannel, { skipNullProperties: false }) {}

/** MessageChannel as returned: common fields, readable fields and relations. */
export class MessageChannelForResponse extends RecordResponse(MessageChannel) {}
