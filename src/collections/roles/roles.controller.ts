import { createCrudController } from '../../core/rest/crud-controller.factory';
import { roles } from './role.entity';

export class RolesController extends createCrudController(roles) {}
