import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { MessageChannel, MessageChannelForResponse, MessageChannelForUpdate } from './message-channel.dto';

@RecordEntity({ table: 'messageChannel', fields: MessageChannel })
export class MessageChannelEntity {}

export const messageChannels = defineCollection({
  plural: 'messageChannels',
  description: 'Message channels: mailboxes synchronised from connected accounts',
  singular: 'messageChannel',
  pascal: 'MessageChannel',
  pascalPlural: 'MessageChannels',
  entity: MessageChannelEntity,
  create: MessageChannel,
  update: MessageChannelForUpdate,
  response: MessageChannelForResponse,
  labelIdentifier: 'handle',
  duplicateCriteria: [['connectedAccountId', 'handle']],
  timeline: false,
});
