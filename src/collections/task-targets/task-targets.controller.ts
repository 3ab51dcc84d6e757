import { createCrudController } from '../../core/rest/crud-controller.factory';
import { taskTargets } from './task-target.entity';

export class TaskTargetsController extends createCrudController(taskTargets) {}
