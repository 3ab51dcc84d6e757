import { createCrudController } from '../../core/rest/crud-controller.factory';
import { calendarChannels } from './calendar-channel.entity';

export class CalendarChannelsController extends createCrudController(calendarChannels) {}
