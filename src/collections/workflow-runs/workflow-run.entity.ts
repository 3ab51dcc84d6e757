import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { WorkflowRun, WorkflowRunForResponse, WorkflowRunForUpdate } from './workflow-run.dto';

@RecordEntity({ table: 'workflowRun', fields: WorkflowRun, searchVector: ['name'] })
export class WorkflowRunEntity {}

export const workflowRuns = defineCollection({
  plural: 'workflowRuns',
  description: 'Workflow runs: executions of workflow versions',
  singular: 'workflowRun',
  pascal: 'WorkflowRun',
  pascalPlural: 'WorkflowRuns',
  entity: WorkflowRunEntity,
  create: WorkflowRun,
  update: WorkflowRunForUpdate,
  response: WorkflowRunForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [],
  timeline: true,
});
