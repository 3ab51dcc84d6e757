import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, SelectField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const MESSAGE_CHANNEL_MESSAGE_ASSOCIATION_DIRECTION_OPTIONS = ['INCOMING', 'OUTGOING'] as const;

/** MessageChannelMessageAssociation: the create body (every writable field, declared once). */
export class MessageChannelMessageAssociation {
  @TextField({ description: 'Provider message id', nullable: true })
  messageExternalId?: string | null;

  @TextField({ description: 'Provider thread id', nullable: true })
  messageThreadExternalId?: string | null;

  @SelectField(MESSAGE_CHANNEL_MESSAGE_ASSOCIATION_DIRECTION_OPTIONS, { default: 'INCOMING' })
  direction?: string;

  @JoinColumnField({
    name: 'messageChannel',
    target: 'messageChannels',
    inverse: 'messageChannelMessageAssociations',
    onDelete: 'CASCADE',
    nullable: true,
  })
  messageChannelId?: string | null;

  @JoinColumnField({
    name: 'message',
    target: 'messages',
    inverse: 'messageChannelMessageAssociations',
    onDelete: 'CASCADE',
    nullable: true,
  })
  messageId?: string | null;
}

/** MessageChannelMessageAssociation update body: every field optional (PATCH). */
export class MessageChannelMessageAssociationForUpdate extends PartialType(MessageChannelMessageAssociation, {
  skipNullProperties: false,
}) {}

/** MessageChannelMessageAssociation as returned: common fields, readable fields and relations. */
export class MessageChannelMessageAssociationForResponse extends RecordResponse(MessageChannelMessageAssociation) {}
