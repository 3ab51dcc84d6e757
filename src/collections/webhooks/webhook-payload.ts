import { RecordEvent } from '../../core/events/record-events';

/**
 * The body of a webhook POST without the per-webhook parts (`targetUrl`, `webhookId`), which the
 * dispatcher adds: `{targetUrl, eventName, objectMetadata: {nameSingular}, workspaceId, webhookId,
 * eventDate, record, updatedFields?}`. This service has no workspaces: `workspaceId` is null.
 */
export function webhookPayload(event: RecordEvent): Record<string, unknown> {
  return {
    eventName: event.name,
    objectMetadata: { nameSingular: event.meta.def.singular },
    workspaceId: null,
    eventDate: new Date().toISOString(),
    record: event.after ?? event.before,
    ...(event.updatedFields ? { updatedFields: event.updatedFields } : {}),
  };
}
