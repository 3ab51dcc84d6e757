import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Workflow, WorkflowForResponse, WorkflowForUpdate } from './workflow.dto';

@RecordEntity({ table: 'workflow', fields: Workflow, searchVector: ['name'] })
export class WorkflowEntity {}

export const workflows = defineCollection({
  plural: 'workflows',
  description: 'Workflows: automations triggered by record events or schedules',
  singular: 'workflow',
  pascal: 'Workflow',
  pascalPlural: 'Workflows',
  entity: WorkflowEntity,
  create: Workflow,
  update: WorkflowForUpdate,
  response: WorkflowForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [['name']],
  timeline: true,
});
