import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Person, PersonForResponse, PersonForUpdate } from './person.dto';

@RecordEntity({
  table: 'person',
  fields: Person,
  indexes: [{ columns: ['nameFirstName'] }, { columns: ['nameLastName'] }, { columns: ['emailsPrimaryEmail'] }],
  searchVector: ['name.firstName', 'name.lastName', 'emails.primaryEmail', 'phones.primaryPhoneNumber', 'jobTitle'],
})
export class PersonEntity {}

export const people = defineCollection({
  plural: 'people',
  description: 'People: the contacts of the CRM (name, emails, phones, job, city, company)',
  featured: 1,
  singular: 'person',
  pascal: 'Person',
  pascalPlural: 'People',
  entity: PersonEntity,
  create: Person,
  update: PersonForUpdate,
  response: PersonForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [['name.firstName', 'name.lastName'], ['linkedinLink.primaryLinkUrl'], ['emails.primaryEmail']],
  timeline: true,
});
