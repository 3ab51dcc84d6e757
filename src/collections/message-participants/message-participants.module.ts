import { Module } from '@nestjs/common';
import { MessageParticipantsController } from './message-participants.controller';

@Module({ controllers: [MessageParticipantsController] })
export class MessageParticipantsModule {}
