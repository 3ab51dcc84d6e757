import { Module } from '@nestjs/common';
import { ViewFiltersController } from './view-filters.controller';

@Module({ controllers: [ViewFiltersController] })
export class ViewFiltersModule {}
