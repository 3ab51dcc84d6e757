import { createCrudController } from '../../core/rest/crud-controller.factory';
import { viewGroups } from './view-group.entity';

export class ViewGroupsController extends createCrudController(viewGroups) {}
