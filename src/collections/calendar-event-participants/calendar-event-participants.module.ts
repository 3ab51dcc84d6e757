import { Module } from '@nestjs/common';
import { CalendarEventParticipantsController } from './calendar-event-participants.controller';

@Module({ controllers: [CalendarEventParticipantsController] })
export class CalendarEventParticipantsModule {}
