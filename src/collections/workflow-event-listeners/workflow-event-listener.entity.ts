import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import {
  WorkflowEventListener,
  WorkflowEventListenerForResponse,
  WorkflowEventListenerForUpdate,
} from './workflow-event-listener.dto';

@RecordEntity({ table: 'workflowEventListener', fields: WorkflowEventListener })
export class WorkflowEventListenerEntity {}

export const workflowEventListeners = defineCollection({
  plural: 'workflowEventListeners',
  description: 'Workflow event listeners: record events that start a workflow',
  singular: 'workflowEventListener',
  pascal: 'WorkflowEventListener',
  pascalPlural: 'WorkflowEventListeners',
  entity: WorkflowEventListenerEntity,
  create: WorkflowEventListener,
  update: WorkflowEventListenerForUpdate,
  response: WorkflowEventListenerForResponse,
  labelIdentifier: 'eventName',
  duplicateCriteria: [],
  timeline: false,
});
