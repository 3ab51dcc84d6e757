import { createCrudController } from '../../core/rest/crud-controller.factory';
import { viewFields } from './view-field.entity';

export class ViewFieldsController extends createCrudController(viewFields) {}
