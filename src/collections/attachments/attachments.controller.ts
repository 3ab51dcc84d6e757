import { createCrudController } from '../../core/rest/crud-controller.factory';
import { attachments } from './attachment.entity';

export class AttachmentsController extends createCrudController(attachments) {}
