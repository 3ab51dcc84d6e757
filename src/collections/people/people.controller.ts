import { createCrudController } from '../../core/rest/crud-controller.factory';
import { people } from './person.entity';

export class PeopleController extends createCrudController(people) {}
