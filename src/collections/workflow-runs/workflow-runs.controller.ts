import { createCrudController } from '../../core/crud/crud-controller.factory';
import { workflowRuns } from './workflow-run.entity';

export class WorkflowRunsController extends createCrudController(workflowRuns) {}
