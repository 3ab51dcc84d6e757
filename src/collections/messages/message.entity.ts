import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Message, MessageForResponse, MessageForUpdate } from './message.dto';

@RecordEntity({ table: 'message', fields: Message })
export class MessageEntity {}

export const messages = defineCollection({
  plural: 'messages',
  description: 'Messages: emails imported from message channels',
  singular: 'message',
  pascal: 'Message',
  pascalPlural: 'Messages',
  entity: MessageEntity,
  create: Message,
  update: MessageForUpdate,
  response: MessageForResponse,
  labelIdentifier: 'subject',
  duplicateCriteria: [['headerMessageId']],
  timeline: false,
});
