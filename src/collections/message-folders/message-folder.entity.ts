import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { MessageFolder, MessageFolderForResponse, MessageFolderForUpdate } from './message-folder.dto';

@RecordEntity({ table: 'messageFolder', fields: MessageFolder })
export class MessageFolderEntity {}

export const messageFolders = defineCollection({
  plural: 'messageFolders',
  description: 'Message folders: folders of a message channel',
  singular: 'messageFolder',
  pascal: 'MessageFolder',
  pascalPlural: 'MessageFolders',
  entity: MessageFolderEntity,
  create: MessageFolder,
  update: MessageFolderForUpdate,
  response: MessageFolderForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [['messageChannelId', 'name']],
  timeline: false,
});
