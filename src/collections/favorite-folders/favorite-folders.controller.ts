import { createCrudController } from '../../core/rest/crud-controller.factory';
import { favoriteFolders } from './favorite-folder.entity';

export class FavoriteFoldersController extends createCrudController(favoriteFolders) {}
