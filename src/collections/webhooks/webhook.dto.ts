import { PartialType } from '@nestjs/swagger';
import { ArrayField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** Webhook: the create body (every writable field, declared once). */
export class Webhook {
  // required: a webhook without a URL could never deliver (collections.json gives it a '' default)
  // public: its host must be or resolve to public addresses only (webhook-target.ts)
  @TextField({
    httpUrl: true,
    required: true,
    description:
      'Where matching events are POSTed: an http or https URL whose host is public (not loopback, private or link-local, unless the server sets WEBHOOK_ALLOW_PRIVATE_TARGETS)',
  })
  targetUrl!: string;

  @TextField({ deprecated: true })
  operation?: string;

  @ArrayField({ description: 'Event patterns: person.created, *.updated, person.*, *.*', default: ['*.*'] })
  operations?: string[];

  @TextField({ nullable: true })
  description?: string | null;

  // Write-only: accepted on create and update, never returned in any response or payload.
  @TextField({ writeOnly: true, description: 'HMAC-SHA256 key of the X-Twenty-Webhook-Signature header (write-only)' })
  secret?: string;
}

/** Webhook update body: every field optional (PATCH). */
export class WebhookForUpdate extends PartialType(Webhook, { skipNullProperties: false }) {}

/** Webhook as returned: common fields, readable fields and relations. */
export class WebhookForResponse extends RecordResponse(Webhook) {}
