import { createCrudController } from '../../core/crud/crud-controller.factory';
import { attachments } from './attachment.entity';

export class AttachmentsController extends createCrudController(attachments) {}
