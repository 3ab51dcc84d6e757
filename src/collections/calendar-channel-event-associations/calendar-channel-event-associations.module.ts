import { Module } from '@nestjs/common';
import { CalendarChannelEventAssociationsController } from './calendar-channel-event-associations.controller';

@Module({ controllers: [CalendarChannelEventAssociationsController] })
export class CalendarChannelEventAssociationsModule {}
