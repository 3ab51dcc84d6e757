import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import {
  MessageParticipant,
  MessageParticipantForResponse,
  MessageParticipantForUpdate,
} from './message-participant.dto';

@RecordEntity({ table: 'messageParticipant', fields: MessageParticipant })
export class MessageParticipantEntity {}

export const messageParticipants = defineCollection({
  plural: 'messageParticipants',
  description: 'Message participants: senders and recipients of a message',
  singular: 'messageParticipant',
  pascal: 'MessageParticipant',
  pascalPlural: 'MessageParticipants',
  entity: MessageParticipantEntity,
  create: MessageParticipant,
  update: MessageParticipantForUpdate,
  response: MessageParticipantForResponse,
  labelIdentifier: 'handle',
  duplicateCriteria: [['messageId', 'handle']],
  timeline: false,
});
