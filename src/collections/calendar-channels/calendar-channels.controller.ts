import { createCrudController } from '../../core/crud/crud-controller.factory';
import { calendarChannels } from './calendar-channel.entity';

export class CalendarChannelsController extends createCrudController(calendarChannels) {}
