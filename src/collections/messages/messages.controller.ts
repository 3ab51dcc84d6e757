import { createCrudController } from '../../core/rest/crud-controller.factory';
import { messages } from './message.entity';

export class MessagesController extends createCrudController(messages) {}
