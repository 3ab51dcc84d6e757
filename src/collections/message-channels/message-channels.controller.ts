import { createCrudController } from '../../core/rest/crud-controller.factory';
import { messageChannels } from './message-channel.entity';

export class MessageChannelsController extends createCrudController(messageChannels) {}
