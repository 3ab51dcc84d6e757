import { createCrudController } from '../../core/rest/crud-controller.factory';
import { companies } from './company.entity';

export class CompaniesController extends createCrudController(companies) {}
