import { createCrudController } from '../../core/rest/crud-controller.factory';
import { workflowRuns } from './workflow-run.entity';

export class WorkflowRunsController extends createCrudController(workflowRuns) {}
