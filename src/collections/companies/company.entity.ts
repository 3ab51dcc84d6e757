import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Company, CompanyForResponse, CompanyForUpdate } from './company.dto';

@RecordEntity({
  table: 'company',
  fields: Company,
  indexes: [{ columns: ['name'] }, { columns: ['domainNamePrimaryLinkUrl'] }],
  searchVector: ['name', 'domainName.primaryLinkUrl'],
})
export class CompanyEntity {}

export const companies = defineCollection({
  plural: 'companies',
  description: 'Companies: the organisations the CRM tracks (domain, size, address, account owner)',
  featured: 2,
  singular: 'company',
  pascal: 'Company',
  pascalPlural: 'Companies',
  entity: CompanyEntity,
  create: Company,
  update: CompanyForUpdate,
  response: CompanyForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [['name'], ['domainName.primaryLinkUrl']],
  timeline: true,
});
