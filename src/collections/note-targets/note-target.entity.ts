import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { NoteTarget, NoteTargetForResponse, NoteTargetForUpdate } from './note-target.dto';

@RecordEntity({ table: 'noteTarget', fields: NoteTarget })
export class NoteTargetEntity {}

export const noteTargets = defineCollection({
  plural: 'noteTargets',
  description: 'Note targets: the records a note is about',
  singular: 'noteTarget',
  pascal: 'NoteTarget',
  pascalPlural: 'NoteTargets',
  entity: NoteTargetEntity,
  create: NoteTarget,
  update: NoteTargetForUpdate,
  response: NoteTargetForResponse,
  duplicateCriteria: [],
  timeline: false,
  // events on a note target also appear on the timeline of the records it links, as linked-note.*
  linkedTimeline: { via: 'noteId', name: 'linked-note' },
});
