import { createCrudController } from '../../core/rest/crud-controller.factory';
import { messageParticipants } from './message-participant.entity';

export class MessageParticipantsController extends createCrudController(messageParticipants) {}
