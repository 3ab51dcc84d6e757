import { createCrudController } from '../../core/rest/crud-controller.factory';
import { opportunities } from './opportunity.entity';

export class OpportunitiesController extends createCrudController(opportunities) {}
