import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Favorite, FavoriteForResponse, FavoriteForUpdate } from './favorite.dto';

@RecordEntity({ table: 'favorite', fields: Favorite })
export class FavoriteEntity {}

export const favorites = defineCollection({
  plural: 'favorites',
  description: 'Favorites: records and views pinned by workspace members',
  singular: 'favorite',
  pascal: 'Favorite',
  pascalPlural: 'Favorites',
  entity: FavoriteEntity,
  create: Favorite,
  update: FavoriteForUpdate,
  response: FavoriteForResponse,
  duplicateCriteria: [],
  timeline: false,
});
