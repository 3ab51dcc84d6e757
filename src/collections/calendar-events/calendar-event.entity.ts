import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { CalendarEvent, CalendarEventForResponse, CalendarEventForUpdate } from './calendar-event.dto';

@RecordEntity({ table: 'calendarEvent', fields: CalendarEvent })
export class CalendarEventEntity {}

export const calendarEvents = defineCollection({
  plural: 'calendarEvents',
  description: 'Calendar events: meetings imported from calendars',
  singular: 'calendarEvent',
  pascal: 'CalendarEvent',
  pascalPlural: 'CalendarEvents',
  entity: CalendarEventEntity,
  create: CalendarEvent,
  update: CalendarEventForUpdate,
  response: CalendarEventForResponse,
  labelIdentifier: 'title',
  duplicateCriteria: [['iCalUID']],
  timeline: false,
});
