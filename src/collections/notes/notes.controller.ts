import { createCrudController } from '../../core/crud/crud-controller.factory';
import { notes } from './note.entity';

export class NotesController extends createCrudController(notes) {}
