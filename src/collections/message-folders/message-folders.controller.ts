import { createCrudController } from '../../core/rest/crud-controller.factory';
import { messageFolders } from './message-folder.entity';

export class MessageFoldersController extends createCrudController(messageFolders) {}
