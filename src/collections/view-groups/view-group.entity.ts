import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { ViewGroup, ViewGroupForResponse, ViewGroupForUpdate } from './view-group.dto';

@RecordEntity({ table: 'viewGroup', fields: ViewGroup })
export class ViewGroupEntity {}

export const viewGroups = defineCollection({
  plural: 'viewGroups',
  description: 'View groups: the groups (kanban columns) of a view',
  singular: 'viewGroup',
  pascal: 'ViewGroup',
  pascalPlural: 'ViewGroups',
  entity: ViewGroupEntity,
  create: ViewGroup,
  update: ViewGroupForUpdate,
  response: ViewGroupForResponse,
  duplicateCriteria: [],
  timeline: false,
});
