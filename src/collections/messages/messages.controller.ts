import { createCrudController } from '../../core/crud/crud-controller.factory';
import { messages } from './message.entity';

export class MessagesController extends createCrudController(messages) {}
