import { createCrudController } from '../../core/crud/crud-controller.factory';
import { people } from './person.entity';

export class PeopleController extends createCrudController(people) {}
