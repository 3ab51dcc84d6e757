import { createCrudController } from '../../core/crud/crud-controller.factory';
import { webhooks } from './webhook.entity';

export class WebhooksController extends createCrudController(webhooks) {}
