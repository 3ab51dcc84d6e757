import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import {
  MessageChannelMessageAssociation,
  MessageChannelMessageAssociationForResponse,
  MessageChannelMessageAssociationForUpdate,
} from './message-channel-message-association.dto';

@RecordEntity({ table: 'messageChannelMessageAssociation', fields: MessageChannelMessageAssociation })
export class MessageChannelMessageAssociationEntity {}

export const messageChannelMessageAssociations = defineCollection({
  plural: 'messageChannelMessageAssociations',
  description: 'Message channel message associations: which channel a message was imported from',
  singular: 'messageChannelMessageAssociation',
  pascal: 'MessageChannelMessageAssociation',
  pascalPlural: 'MessageChannelMessageAssociations',
  entity: MessageChannelMessageAssociationEntity,
  create: MessageChannelMessageAssociation,
  update: MessageChannelMessageAssociationForUpdate,
  response: MessageChannelMessageAssociationForResponse,
  duplicateCriteria: [],
  timeline: false,
});
