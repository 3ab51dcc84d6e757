import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { FavoriteFolder, FavoriteFolderForResponse, FavoriteFolderForUpdate } from './favorite-folder.dto';

@RecordEntity({ table: 'favoriteFolder', fields: FavoriteFolder })
export class FavoriteFolderEntity {}

export const favoriteFolders = defineCollection({
  plural: 'favoriteFolders',
  description: 'Favorite folders: folders grouping favorites',
  singular: 'favoriteFolder',
  pascal: 'FavoriteFolder',
  pascalPlural: 'FavoriteFolders',
  entity: FavoriteFolderEntity,
  create: FavoriteFolder,
  update: FavoriteFolderForUpdate,
  response: FavoriteFolderForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [],
  timeline: false,
});
