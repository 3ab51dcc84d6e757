import { createCrudController } from '../../core/crud/crud-controller.factory';
import { messageFolders } from './message-folder.entity';

export class MessageFoldersController extends createCrudController(messageFolders) {}
