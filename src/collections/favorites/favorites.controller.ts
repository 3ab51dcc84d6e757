import { createCrudController } from '../../core/crud/crud-controller.factory';
import { favorites } from './favorite.entity';

export class FavoritesController extends createCrudController(favorites) {}
