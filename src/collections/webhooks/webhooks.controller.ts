import { createCrudController } from '../../core/rest/crud-controller.factory';
import { webhooks } from './webhook.entity';

export class WebhooksController extends createCrudController(webhooks) {}
