import { Module } from '@nestjs/common';
import { MessageChannelMessageAssociationsController } from './message-channel-message-associations.controller';

@Module({ controllers: [MessageChannelMessageAssociationsController] })
export class MessageChannelMessageAssociationsModule {}
