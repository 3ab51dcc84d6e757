/**
 * The `webhooks` section of the OpenAPI 3.1 document: what the service POSTs to each `webhooks`
 * record for every matching record event (see src/core/events).
 */
export const WEBHOOK_DOCS = {
  recordEvent: {
    post: {
      summary: 'A record event (<singular>.created|updated|deleted|destroyed|restored)',
      description:
        'One POST per event and matching webhook (operations such as person.created, *.updated, person.*, *.*). ' +
        'Verify X-Twenty-Webhook-Signature = hex HMAC-SHA256(secret, "<X-Twenty-Webhook-Timestamp>:<raw body>"). ' +
        'Delivery is at least once: de-duplicate with X-Delivery-Id. Answer 2xx; network errors, timeouts (5 s), ' +
        '5xx and 429 are retried with backoff (about 1 s, 5 s, 15 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h).',
      parameters: [
        {
          name: 'X-Twenty-Webhook-Timestamp',
          in: 'header',
          required: true,
          schema: { type: 'string', description: 'Milliseconds since the epoch' },
        },
        {
          name: 'X-Twenty-Webhook-Signature',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        },
        { name: 'X-Twenty-Webhook-Nonce', in: 'header', required: true, schema: { type: 'string' } },
        {
          name: 'X-Delivery-Id',
          in: 'header',
          required: true,
          schema: { type: 'string', format: 'uuid', description: 'Stable across retries of one delivery' },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['targetUrl', 'eventName', 'objectMetadata', 'workspaceId', 'webhookId', 'eventDate', 'record'],
              properties: {
                targetUrl: { type: 'string', format: 'uri' },
                eventName: { type: 'string', examples: ['person.created'] },
                objectMetadata: {
                  type: 'object',
                  required: ['nameSingular'],
                  properties: { nameSingular: { type: 'string' } },
                },
                workspaceId: { type: 'null', description: 'This service has no workspaces' },
                webhookId: { type: 'string', format: 'uuid' },
                eventDate: { type: 'string', format: 'date-time' },
                record: {
                  type: 'object',
                  description:
                    'The record after the change (before it, for deleted and destroyed), at depth 0; secrets redacted',
                },
                updatedFields: { type: 'array', items: { type: 'string' }, description: 'For updated events' },
              },
            },
          },
        },
      },
      responses: { '200': { description: 'Any 2xx acknowledges the delivery' } },
    },
  },
};
