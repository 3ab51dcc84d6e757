import { createCrudController } from '../../core/rest/crud-controller.factory';
import { messageThreads } from './message-thread.entity';

export class MessageThreadsController extends createCrudController(messageThreads) {}
