import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { TaskTarget, TaskTargetForResponse, TaskTargetForUpdate } from './task-target.dto';

@RecordEntity({ table: 'taskTarget', fields: TaskTarget })
export class TaskTargetEntity {}

export const taskTargets = defineCollection({
  plural: 'taskTargets',
  singular: 'taskTarget',
  pascal: 'TaskTarget',
  pascalPlural: 'TaskTargets',
  entity: TaskTargetEntity,
  create: TaskTarget,
  update: TaskTargetForUpdate,
  response: TaskTargetForResponse,
  duplicateCriteria: [],
  timeline: false,
});
