import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { ConnectedAccount, ConnectedAccountForResponse, ConnectedAccountForUpdate } from './connected-account.dto';

@RecordEntity({ table: 'connectedAccount', fields: ConnectedAccount })
export class ConnectedAccountEntity {}

export const connectedAccounts = defineCollection({
  plural: 'connectedAccounts',
  description: 'Connected accounts: mail and calendar accounts of workspace members (tokens encrypted)',
  singular: 'connectedAccount',
  pascal: 'ConnectedAccount',
  pascalPlural: 'ConnectedAccounts',
  entity: ConnectedAccountEntity,
  create: ConnectedAccount,
  update: ConnectedAccountForUpdate,
  response: ConnectedAccountForResponse,
  labelIdentifier: 'handle',
  duplicateCriteria: [['handle', 'provider']],
  timeline: false,
});
