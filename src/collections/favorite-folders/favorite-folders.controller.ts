import { createCrudController } from '../../core/crud/crud-controller.factory';
import { favoriteFolders } from './favorite-folder.entity';

export class FavoriteFoldersController extends createCrudController(favoriteFolders) {}
