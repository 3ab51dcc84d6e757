import { createCrudController } from '../../core/rest/crud-controller.factory';
import { favorites } from './favorite.entity';

export class FavoritesController extends createCrudController(favorites) {}
