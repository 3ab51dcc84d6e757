import { createCrudController } from '../../core/crud/crud-controller.factory';
import { viewGroups } from './view-group.entity';

export class ViewGroupsController extends createCrudController(viewGroups) {}
