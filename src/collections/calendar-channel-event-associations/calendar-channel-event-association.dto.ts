import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** CalendarChannelEventAssociation: the create body (every writable field, declared once). */
export class CalendarChannelEventAssociation {
  @TextField({ description: 'Provider event id' })
  eventExternalId?: string;

  @TextField({ description: 'Provider recurring-event id' })
  recurringEventExternalId?: string;

  @JoinColumnField({
    name: 'calendarChannel',
    target: 'calendarChannels',
    inverse: 'calendarChannelEventAssociations',
    onDelete: 'CASCADE',
  })
  calendarChannelId!: string;

  @JoinColumnField({
    name: 'calendarEvent',
    target: 'calendarEvents',
    inverse: 'calendarChannelEventAssociations',
    onDelete: 'CASCADE',
  })
  calendarEventId!: string;
}

/** CalendarChannelEventAssociation update body: every field optional (PATCH). */
export class CalendarChannelEventAssociationForUpdate extends PartialType(CalendarChannelEventAssociation, {
  skipNullProperties: false,
}) {}

/** CalendarChannelEventAssociation as returned: common fields, readable fields and relations. */
export class CalendarChannelEventAssociationForResponse extends RecordResponse(CalendarChannelEventAssociation) {}
