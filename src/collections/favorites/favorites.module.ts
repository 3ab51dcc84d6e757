import { Module } from '@nestjs/common';
import { FavoritesController } from './favorites.controller';

@Module({ controllers: [FavoritesController] })
export class FavoritesModule {}
