import { Module } from '@nestjs/common';
import { ViewGroupsController } from './view-groups.controller';

@Module({ controllers: [ViewGroupsController] })
export class ViewGroupsModule {}
