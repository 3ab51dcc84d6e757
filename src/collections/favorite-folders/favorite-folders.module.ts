import { Module } from '@nestjs/common';
import { FavoriteFoldersController } from './favorite-folders.controller';

@Module({ controllers: [FavoriteFoldersController] })
export class FavoriteFoldersModule {}
