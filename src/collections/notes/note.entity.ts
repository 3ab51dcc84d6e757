import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Note, NoteForResponse, NoteForUpdate } from './note.dto';

@RecordEntity({ table: 'note', fields: Note, searchVector: ['title', 'bodyV2.markdown'] })
export class NoteEntity {}

export const notes = defineCollection({
  plural: 'notes',
  description: 'Notes: free text written about records, linked through note targets',
  featured: 4,
  singular: 'note',
  pascal: 'Note',
  pascalPlural: 'Notes',
  entity: NoteEntity,
  create: Note,
  update: NoteForUpdate,
  response: NoteForResponse,
  labelIdentifier: 'title',
  duplicateCriteria: [],
  timeline: true,
});
