import { Type } from '@nestjs/common';
import { CollectionDefinition } from '../core/crud/collection-definition';
import { apiKeys } from './api-keys/api-key.entity';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { companies } from './companies/company.entity';
import { CompaniesModule } from './companies/companies.module';
import { connectedAccounts } from './connected-accounts/connected-account.entity';
import { ConnectedAccountsModule } from './connected-accounts/connected-accounts.module';
import { messageChannels } from './message-channels/message-channel.entity';
import { MessageChannelsModule } from './message-channels/message-channels.module';
import { people } from './people/person.entity';
import { PeopleModule } from './people/people.module';
import { workspaceMembers } from './workspace-members/workspace-member.entity';
import { WorkspaceMembersModule } from './workspace-members/workspace-members.module';

export interface CollectionRegistration {
  definition: CollectionDefinition;
  module: Type<unknown>;
}

/** COLLECTIONS: the one list. It feeds the AppModule, the DataSource, OpenAPI and the tests. */
export const COLLECTIONS: CollectionRegistration[] = [
  { definition: apiKeys, module: ApiKeysModule },
  { definition: companies, module: CompaniesModule },
  { definition: connectedAccounts, module: ConnectedAccountsModule },
  { definition: messageChannels, module: MessageChannelsModule },
  { definition: people, module: PeopleModule },
  { definition: workspaceMembers, module: WorkspaceMembersModule },
];

export const COLLECTION_DEFINITIONS = COLLECTIONS.map((c) => c.definition);
export const COLLECTION_ENTITIES = COLLECTIONS.map((c) => c.definition.entity);
