import { createCrudController } from '../../core/crud/crud-controller.factory';
import { blocklists } from './blocklist.entity';

export class BlocklistsController extends createCrudController(blocklists) {}
