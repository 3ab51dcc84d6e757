import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Blocklist, BlocklistForResponse, BlocklistForUpdate } from './blocklist.dto';

@RecordEntity({ table: 'blocklist', fields: Blocklist })
export class BlocklistEntity {}

export const blocklists = defineCollection({
  plural: 'blocklists',
  description: 'Blocklists: handles and domains whose messages and events are not imported',
  singular: 'blocklist',
  pascal: 'Blocklist',
  pascalPlural: 'Blocklists',
  entity: BlocklistEntity,
  create: Blocklist,
  update: BlocklistForUpdate,
  response: BlocklistForResponse,
  labelIdentifier: 'handle',
  duplicateCriteria: [['workspaceMemberId', 'handle']],
  timeline: false,
});
