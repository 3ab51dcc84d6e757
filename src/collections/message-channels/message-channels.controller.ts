import { createCrudController } from '../../core/crud/crud-controller.factory';
import { messageChannels } from './message-channel.entity';

export class MessageChannelsController extends createCrudController(messageChannels) {}
