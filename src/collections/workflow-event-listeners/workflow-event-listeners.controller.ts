import { createCrudController } from '../../core/crud/crud-controller.factory';
import { workflowEventListeners } from './workflow-event-listener.entity';

export class WorkflowEventListenersController extends createCrudController(workflowEventListeners) {}
