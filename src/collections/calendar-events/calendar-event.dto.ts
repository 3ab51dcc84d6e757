import { PartialType } from '@nestjs/swagger';
import { BooleanField, DateTimeField, LinksField, TextField, type Links } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** CalendarEvent: the create body (every writable field, declared once). */
export class CalendarEvent {
  @TextField()
  title?: string;

  @BooleanField({ default: false })
  isCanceled?: boolean;

  @BooleanField({ default: false })
  isFullDay?: boolean;

  @DateTimeField({ nullable: true })
  startsAt?: string | null;

  @DateTimeField({ nullable: true })
  endsAt?: string | null;

  @DateTimeField({ nullable: true })
  externalCreatedAt?: string | null;

  @DateTimeField({ nullable: true })
  externalUpdatedAt?: string | null;

  @TextField()
  description?: string;

  @TextField()
  location?: string;

  @TextField()
  iCalUID?: string;

  @TextField()
  conferenceSolution?: string;

  @LinksField({ nullable: true })
  conferenceLink?: Links | null;
}

/** CalendarEvent update body: every field optional (PATCH). */
export class CalendarEventForUpdate extends PartialType(CalendarEvent, { skipNullProperties: false }) {}

/** CalendarEvent as returned: common fields, readable fields and relations. */
export class CalendarEventForResponse extends RecordResponse(CalendarEvent) {}
