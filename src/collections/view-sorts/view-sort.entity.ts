import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { ViewSort, ViewSortForResponse, ViewSortForUpdate } from './view-sort.dto';

@RecordEntity({
  table: 'viewSort',
  fields: ViewSort,
  indexes: [{ columns: ['fieldMetadataId', 'viewId'], unique: true, where: '"deletedAt" IS NULL' }],
})
export class ViewSortEntity {}

export const viewSorts = defineCollection({
  plural: 'viewSorts',
  description: 'View sorts: the sort order of a view',
  singular: 'viewSort',
  pascal: 'ViewSort',
  pascalPlural: 'ViewSorts',
  entity: ViewSortEntity,
  create: ViewSort,
  update: ViewSortForUpdate,
  response: ViewSortForResponse,
  duplicateCriteria: [],
  timeline: false,
});
