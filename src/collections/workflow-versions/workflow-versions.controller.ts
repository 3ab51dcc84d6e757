import { createCrudController } from '../../core/rest/crud-controller.factory';
import { workflowVersions } from './workflow-version.entity';

export class WorkflowVersionsController extends createCrudController(workflowVersions) {}
