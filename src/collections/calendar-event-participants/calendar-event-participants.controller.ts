import { createCrudController } from '../../core/rest/crud-controller.factory';
import { calendarEventParticipants } from './calendar-event-participant.entity';

export class CalendarEventParticipantsController extends createCrudController(calendarEventParticipants) {}
