import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { TaskTarget, TaskTargetForResponse, TaskTargetForUpdate } from './task-target.dto';

@RecordEntity({ table: 'taskTarget', fields: TaskTarget })
export class TaskTargetEntity {}

export const taskTargets = defineCollection({
  plural: 'taskTargets',
  description: 'Task targets: the records a task is about',
  singular: 'taskTarget',
  pascal: 'TaskTarget',
  pascalPlural: 'TaskTargets',
  entity: TaskTargetEntity,
  create: TaskTarget,
  update: TaskTargetForUpdate,
  response: TaskTargetForResponse,
  duplicateCriteria: [],
  timeline: false,
  // events on a task target also appear on the timeline of the records it links, as linked-task.*
  linkedTimeline: { via: 'taskId', name: 'linked-task' },
});
