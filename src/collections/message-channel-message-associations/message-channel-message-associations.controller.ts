import { createCrudController } from '../../core/rest/crud-controller.factory';
import { messageChannelMessageAssociations } from './message-channel-message-association.entity';

export class MessageChannelMessageAssociationsController extends createCrudController(
  messageChannelMessageAssociations,
) {}
