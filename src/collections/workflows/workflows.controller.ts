import { createCrudController } from '../../core/crud/crud-controller.factory';
import { workflows } from './workflow.entity';

export class WorkflowsController extends createCrudController(workflows) {}
