import { createCrudController } from '../../core/crud/crud-controller.factory';
import { views } from './view.entity';

export class ViewsController extends createCrudController(views) {}
