import { createCrudController } from '../../core/rest/crud-controller.factory';
import { viewFilterGroups } from './view-filter-group.entity';

export class ViewFilterGroupsController extends createCrudController(viewFilterGroups) {}
