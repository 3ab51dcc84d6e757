import { Module } from '@nestjs/common';
import { WorkflowRunsController } from './workflow-runs.controller';

@Module({ controllers: [WorkflowRunsController] })
export class WorkflowRunsModule {}
