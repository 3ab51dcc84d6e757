import { Module } from '@nestjs/common';
import { CalendarEventsController } from './calendar-events.controller';

@Module({ controllers: [CalendarEventsController] })
export class CalendarEventsModule {}
