import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Webhook, WebhookForResponse, WebhookForUpdate } from './webhook.dto';
import { checkWebhookFields } from './webhook-target';

@RecordEntity({ table: 'webhook', fields: Webhook })
export class WebhookEntity {}

export const webhooks = defineCollection({
  plural: 'webhooks',
  description: 'Webhooks: URLs that receive a signed POST for every matching record event',
  singular: 'webhook',
  pascal: 'Webhook',
  pascalPlural: 'Webhooks',
  entity: WebhookEntity,
  create: Webhook,
  update: WebhookForUpdate,
  response: WebhookForResponse,
  labelIdentifier: 'targetUrl',
  duplicateCriteria: [['targetUrl']],
  timeline: false,
  // a webhook receives every value of every matching record: no grant opens it
  adminOnly: true,
  hooks: {
    // targets cannot reach inside (server-side request forgery): a targetUrl whose host is or
    // resolves to a non-public address is refused, unless WEBHOOK_ALLOW_PRIVATE_TARGETS is set
    checkFields: checkWebhookFields,
  },
});
