import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { MessageThread, MessageThreadForResponse, MessageThreadForUpdate } from './message-thread.dto';

@RecordEntity({ table: 'messageThread', fields: MessageThread })
export class MessageThreadEntity {}

export const messageThreads = defineCollection({
  plural: 'messageThreads',
  description: 'Message threads: conversations grouping messages',
  singular: 'messageThread',
  pascal: 'MessageThread',
  pascalPlural: 'MessageThreads',
  entity: MessageThreadEntity,
  create: MessageThread,
  update: MessageThreadForUpdate,
  response: MessageThreadForResponse,
  duplicateCriteria: [],
  timeline: false,
});
