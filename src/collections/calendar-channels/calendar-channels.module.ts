import { Module } from '@nestjs/common';
import { CalendarChannelsController } from './calendar-channels.controller';

@Module({ controllers: [CalendarChannelsController] })
export class CalendarChannelsModule {}
