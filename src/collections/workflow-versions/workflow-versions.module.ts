import { Module } from '@nestjs/common';
import { WorkflowVersionsController } from './workflow-versions.controller';

@Module({ controllers: [WorkflowVersionsController] })
export class WorkflowVersionsModule {}
