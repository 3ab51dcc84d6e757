import { createCrudController } from '../../core/crud/crud-controller.factory';
import { companies } from './company.entity';

export class CompaniesController extends createCrudController(companies) {}
