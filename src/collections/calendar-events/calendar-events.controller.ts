import { createCrudController } from '../../core/rest/crud-controller.factory';
import { calendarEvents } from './calendar-event.entity';

export class CalendarEventsController extends createCrudController(calendarEvents) {}
