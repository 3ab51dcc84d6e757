import { createCrudController } from '../../core/rest/crud-controller.factory';
import { blocklists } from './blocklist.entity';

export class BlocklistsController extends createCrudController(blocklists) {}
