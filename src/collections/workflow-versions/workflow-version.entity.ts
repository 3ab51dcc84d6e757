import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { WorkflowVersion, WorkflowVersionForResponse, WorkflowVersionForUpdate } from './workflow-version.dto';

@RecordEntity({ table: 'workflowVersion', fields: WorkflowVersion, searchVector: ['name'] })
export class WorkflowVersionEntity {}

export const workflowVersions = defineCollection({
  plural: 'workflowVersions',
  description: 'Workflow versions: the steps and trigger of a workflow, versioned',
  singular: 'workflowVersion',
  pascal: 'WorkflowVersion',
  pascalPlural: 'WorkflowVersions',
  entity: WorkflowVersionEntity,
  create: WorkflowVersion,
  update: WorkflowVersionForUpdate,
  response: WorkflowVersionForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [],
  timeline: true,
});
