import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { ViewFilterGroup, ViewFilterGroupForResponse, ViewFilterGroupForUpdate } from './view-filter-group.dto';

@RecordEntity({ table: 'viewFilterGroup', fields: ViewFilterGroup })
export class ViewFilterGroupEntity {}

export const viewFilterGroups = defineCollection({
  plural: 'viewFilterGroups',
  description: 'View filter groups: and/or groups of view filters',
  singular: 'viewFilterGroup',
  pascal: 'ViewFilterGroup',
  pascalPlural: 'ViewFilterGroups',
  entity: ViewFilterGroupEntity,
  create: ViewFilterGroup,
  update: ViewFilterGroupForUpdate,
  response: ViewFilterGroupForResponse,
  duplicateCriteria: [],
  timeline: false,
});
