import { Module } from '@nestjs/common';
import { WorkflowEventListenersController } from './workflow-event-listeners.controller';

@Module({ controllers: [WorkflowEventListenersController] })
export class WorkflowEventListenersModule {}
