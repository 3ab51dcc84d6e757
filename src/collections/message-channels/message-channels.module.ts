import { Module } from '@nestjs/common';
import { MessageChannelsController } from './message-channels.controller';

@Module({ controllers: [MessageChannelsController] })
export class MessageChannelsModule {}
