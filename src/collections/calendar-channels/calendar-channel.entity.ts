import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { CalendarChannel, CalendarChannelForResponse, CalendarChannelForUpdate } from './calendar-channel.dto';

@RecordEntity({ table: 'calendarChannel', fields: CalendarChannel })
export class CalendarChannelEntity {}

export const calendarChannels = defineCollection({
  plural: 'calendarChannels',
  description: 'Calendar channels: calendars synchronised from connected accounts',
  singular: 'calendarChannel',
  pascal: 'CalendarChannel',
  pascalPlural: 'CalendarChannels',
  entity: CalendarChannelEntity,
  create: CalendarChannel,
  update: CalendarChannelForUpdate,
  response: CalendarChannelForResponse,
  labelIdentifier: 'handle',
  duplicateCriteria: [['connectedAccountId', 'handle']],
  timeline: false,
});
