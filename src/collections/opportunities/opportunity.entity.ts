import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Opportunity, OpportunityForResponse, OpportunityForUpdate } from './opportunity.dto';

@RecordEntity({ table: 'opportunity', fields: Opportunity, searchVector: ['name'] })
export class OpportunityEntity {}

export const opportunities = defineCollection({
  plural: 'opportunities',
  description: 'Opportunities: deals in the pipeline (amount, stage, close date, company, point of contact)',
  featured: 3,
  singular: 'opportunity',
  pascal: 'Opportunity',
  pascalPlural: 'Opportunities',
  entity: OpportunityEntity,
  create: Opportunity,
  update: OpportunityForUpdate,
  response: OpportunityForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [['companyId', 'name']],
  timeline: true,
});
