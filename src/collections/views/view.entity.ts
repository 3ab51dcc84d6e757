import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { View, ViewForResponse, ViewForUpdate } from './view.dto';

@RecordEntity({ table: 'view', fields: View })
export class ViewEntity {}

export const views = defineCollection({
  plural: 'views',
  description: 'Views: saved lists and kanbans of a collection',
  singular: 'view',
  pascal: 'View',
  pascalPlural: 'Views',
  entity: ViewEntity,
  create: View,
  update: ViewForUpdate,
  response: ViewForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [['objectMetadataId', 'name']],
  timeline: false,
});
