import { createCrudController } from '../../core/rest/crud-controller.factory';
import { workflows } from './workflow.entity';

export class WorkflowsController extends createCrudController(workflows) {}
