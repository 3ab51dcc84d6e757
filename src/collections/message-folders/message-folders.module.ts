import { Module } from '@nestjs/common';
import { MessageFoldersController } from './message-folders.controller';

@Module({ controllers: [MessageFoldersController] })
export class MessageFoldersModule {}
