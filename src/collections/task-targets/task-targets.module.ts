import { Module } from '@nestjs/common';
import { TaskTargetsController } from './task-targets.controller';

@Module({ controllers: [TaskTargetsController] })
export class TaskTargetsModule {}
