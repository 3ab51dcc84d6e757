import { createCrudController } from '../../core/rest/crud-controller.factory';
import { notes } from './note.entity';

export class NotesController extends createCrudController(notes) {}
