import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import {
  CalendarEventParticipant,
  CalendarEventParticipantForResponse,
  CalendarEventParticipantForUpdate,
} from './calendar-event-participant.dto';

@RecordEntity({ table: 'calendarEventParticipant', fields: CalendarEventParticipant })
export class CalendarEventParticipantEntity {}

export const calendarEventParticipants = defineCollection({
  plural: 'calendarEventParticipants',
  description: 'Calendar event participants: who takes part in a calendar event',
  singular: 'calendarEventParticipant',
  pascal: 'CalendarEventParticipant',
  pascalPlural: 'CalendarEventParticipants',
  entity: CalendarEventParticipantEntity,
  create: CalendarEventParticipant,
  update: CalendarEventParticipantForUpdate,
  response: CalendarEventParticipantForResponse,
  labelIdentifier: 'handle',
  duplicateCriteria: [['calendarEventId', 'handle']],
  timeline: false,
});
