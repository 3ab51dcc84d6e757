import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { ViewFilter, ViewFilterForResponse, ViewFilterForUpdate } from './view-filter.dto';

@RecordEntity({ table: 'viewFilter', fields: ViewFilter })
export class ViewFilterEntity {}

export const viewFilters = defineCollection({
  plural: 'viewFilters',
  description: 'View filters: the conditions of a view',
  singular: 'viewFilter',
  pascal: 'ViewFilter',
  pascalPlural: 'ViewFilters',
  entity: ViewFilterEntity,
  create: ViewFilter,
  update: ViewFilterForUpdate,
  response: ViewFilterForResponse,
  duplicateCriteria: [],
  timeline: false,
});
