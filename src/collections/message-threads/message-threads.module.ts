import { Module } from '@nestjs/common';
import { MessageThreadsController } from './message-threads.controller';

@Module({ controllers: [MessageThreadsController] })
export class MessageThreadsModule {}
