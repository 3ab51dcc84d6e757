import { createCrudController } from '../../core/rest/crud-controller.factory';
import { tasks } from './task.entity';

export class TasksController extends createCrudController(tasks) {}
