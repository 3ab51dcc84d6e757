import { createCrudController } from '../../core/crud/crud-controller.factory';
import { tasks } from './task.entity';

export class TasksController extends createCrudController(tasks) {}
