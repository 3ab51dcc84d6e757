import { Module } from '@nestjs/common';
import { ViewFilterGroupsController } from './view-filter-groups.controller';

@Module({ controllers: [ViewFilterGroupsController] })
export class ViewFilterGroupsModule {}
