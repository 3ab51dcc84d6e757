import { Module } from '@nestjs/common';
import { ViewFieldsController } from './view-fields.controller';

@Module({ controllers: [ViewFieldsController] })
export class ViewFieldsModule {}
