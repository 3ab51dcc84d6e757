import { createCrudController } from '../../core/rest/crud-controller.factory';
import { viewFilters } from './view-filter.entity';

export class ViewFiltersController extends createCrudController(viewFilters) {}
