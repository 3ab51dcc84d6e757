import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { ViewField, ViewFieldForResponse, ViewFieldForUpdate } from './view-field.dto';

@RecordEntity({
  table: 'viewField',
  fields: ViewField,
  indexes: [{ columns: ['fieldMetadataId', 'viewId'], unique: true, where: '"deletedAt" IS NULL' }],
})
export class ViewFieldEntity {}

export const viewFields = defineCollection({
  plural: 'viewFields',
  description: 'View fields: the columns of a view',
  singular: 'viewField',
  pascal: 'ViewField',
  pascalPlural: 'ViewFields',
  entity: ViewFieldEntity,
  create: ViewField,
  update: ViewFieldForUpdate,
  response: ViewFieldForResponse,
  duplicateCriteria: [],
  timeline: false,
});
