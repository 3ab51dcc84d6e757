import { Module } from '@nestjs/common';
import { ViewSortsController } from './view-sorts.controller';

@Module({ controllers: [ViewSortsController] })
export class ViewSortsModule {}
