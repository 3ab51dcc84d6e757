import { eventRecordSql } from '../../core/repository/event-rows';

/**
 * SQL for the body of a webhook POST from a row `e` of the events relation, without the
 * per-webhook parts (`targetUrl`, `webhookId`) the dispatcher adds: `{targetUrl, eventName,
 * objectMetadata: {nameSingular}, workspaceId, webhookId, eventDate, record, updatedFields?}`.
 * This service has no workspaces: `workspaceId` is null.
 */
export function webhookPayloadSql(e: string): string {
  const eventDate = `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const payload =
    `jsonb_build_object('eventName', ${e}."name", 'objectMetadata', jsonb_build_object('nameSingular', ${e}."objectName"), ` +
    `'workspaceId', NULL, 'eventDate', ${eventDate}, 'record', ${eventRecordSql(e)})`;
  return `CASE WHEN ${e}."updatedFields" IS NULL THEN ${payload} ELSE ${payload} || jsonb_build_object('updatedFields', ${e}."updatedFields") END`;
}
