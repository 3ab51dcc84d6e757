import { createCrudController } from '../../core/crud/crud-controller.factory';
import { messageChannelMessageAssociations } from './message-channel-message-association.entity';

export class MessageChannelMessageAssociationsController extends createCrudController(messageChannelMessageAssociations) {}
