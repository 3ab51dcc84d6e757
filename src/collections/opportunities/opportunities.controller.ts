import { createCrudController } from '../../core/crud/crud-controller.factory';
import { opportunities } from './opportunity.entity';

export class OpportunitiesController extends createCrudController(opportunities) {}
