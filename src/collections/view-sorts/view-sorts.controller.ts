import { createCrudController } from '../../core/rest/crud-controller.factory';
import { viewSorts } from './view-sort.entity';

export class ViewSortsController extends createCrudController(viewSorts) {}
