import { createCrudController } from '../../core/crud/crud-controller.factory';
import { calendarEvents } from './calendar-event.entity';

export class CalendarEventsController extends createCrudController(calendarEvents) {}
