import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Role, RoleForResponse, RoleForUpdate } from './role.dto';

@RecordEntity({ table: 'role', fields: Role })
export class RoleEntity {}

export const roles = defineCollection({
  plural: 'roles',
  description: 'Roles: what the API keys pointing at them may do (actions, hidden and read-only fields, row filters)',
  singular: 'role',
  pascal: 'Role',
  pascalPlural: 'Roles',
  entity: RoleEntity,
  create: Role,
  update: RoleForUpdate,
  response: RoleForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [['name']],
  timeline: false,
  // the power to mint keys and to grant every value: no grant opens it
  adminOnly: true,
});
