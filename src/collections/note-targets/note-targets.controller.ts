import { createCrudController } from '../../core/rest/crud-controller.factory';
import { noteTargets } from './note-target.entity';

export class NoteTargetsController extends createCrudController(noteTargets) {}
