import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { WorkspaceMember, WorkspaceMemberForResponse, WorkspaceMemberForUpdate } from './workspace-member.dto';

@RecordEntity({
  table: 'workspaceMember',
  fields: WorkspaceMember,
  searchVector: ['name.firstName', 'name.lastName', 'userEmail'],
})
export class WorkspaceMemberEntity {}

export const workspaceMembers = defineCollection({
  plural: 'workspaceMembers',
  description: 'Workspace members: the users of the CRM',
  singular: 'workspaceMember',
  pascal: 'WorkspaceMember',
  pascalPlural: 'WorkspaceMembers',
  entity: WorkspaceMemberEntity,
  create: WorkspaceMember,
  update: WorkspaceMemberForUpdate,
  response: WorkspaceMemberForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [['userEmail']],
  timeline: true,
});
