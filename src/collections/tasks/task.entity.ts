import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Task, TaskForResponse, TaskForUpdate } from './task.dto';

@RecordEntity({ table: 'task', fields: Task, searchVector: ['title', 'bodyV2.markdown'] })
export class TaskEntity {}

export const tasks = defineCollection({
  plural: 'tasks',
  description: 'Tasks: things to do, with a due date, status and assignee, linked through task targets',
  featured: 5,
  singular: 'task',
  pascal: 'Task',
  pascalPlural: 'Tasks',
  entity: TaskEntity,
  create: Task,
  update: TaskForUpdate,
  response: TaskForResponse,
  labelIdentifier: 'title',
  duplicateCriteria: [],
  timeline: true,
});
