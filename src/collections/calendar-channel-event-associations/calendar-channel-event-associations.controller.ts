import { createCrudController } from '../../core/rest/crud-controller.factory';
import { calendarChannelEventAssociations } from './calendar-channel-event-association.entity';

export class CalendarChannelEventAssociationsController extends createCrudController(
  calendarChannelEventAssociations,
) {}
