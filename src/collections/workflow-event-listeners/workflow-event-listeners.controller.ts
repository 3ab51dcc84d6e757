import { createCrudController } from '../../core/rest/crud-controller.factory';
import { workflowEventListeners } from './workflow-event-listener.entity';

export class WorkflowEventListenersController extends createCrudController(workflowEventListeners) {}
