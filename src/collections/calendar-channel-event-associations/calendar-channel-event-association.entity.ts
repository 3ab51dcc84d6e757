import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import {
  CalendarChannelEventAssociation,
  CalendarChannelEventAssociationForResponse,
  CalendarChannelEventAssociationForUpdate,
} from './calendar-channel-event-association.dto';

@RecordEntity({ table: 'calendarChannelEventAssociation', fields: CalendarChannelEventAssociation })
export class CalendarChannelEventAssociationEntity {}

export const calendarChannelEventAssociations = defineCollection({
  plural: 'calendarChannelEventAssociations',
  description: 'Calendar channel event associations: which channel an event was imported from',
  singular: 'calendarChannelEventAssociation',
  pascal: 'CalendarChannelEventAssociation',
  pascalPlural: 'CalendarChannelEventAssociations',
  entity: CalendarChannelEventAssociationEntity,
  create: CalendarChannelEventAssociation,
  update: CalendarChannelEventAssociationForUpdate,
  response: CalendarChannelEventAssociationForResponse,
  duplicateCriteria: [],
  timeline: false,
});
