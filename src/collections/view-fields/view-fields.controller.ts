import { createCrudController } from '../../core/crud/crud-controller.factory';
import { viewFields } from './view-field.entity';

export class ViewFieldsController extends createCrudController(viewFields) {}
