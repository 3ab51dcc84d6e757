import { createCrudController } from '../../core/rest/crud-controller.factory';
import { views } from './view.entity';

export class ViewsController extends createCrudController(views) {}
