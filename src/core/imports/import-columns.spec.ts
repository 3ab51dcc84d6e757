import { BadRequestException } from '@nestjs/common';
import { COLLECTION_DEFINITIONS } from '../../collections';
import { Access, adminAccess, Grant } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import { planColumns, planObjectRows } from './import-columns';

const catalog = new CollectionCatalog(COLLECTION_DEFINITIONS);
const people = catalog.require('people');
const admin = adminAccess('admin');

/** A key that may write people but not their city (hidden) nor jobTitle (read-only), and reads no company. */
function restrictedAccess(readCompanies = false): Access {
  const grant = (hidden: string[], readOnly: string[]): Grant => ({
    actions: new Set(['read', 'create', 'update']),
    hidden: new Set(hidden),
    readOnly: new Set(readOnly),
    omitted: new Set(hidden),
  });
  const grants: Record<string, Grant> = { people: grant(['city'], ['jobTitle']) };
  if (readCompanies) grants.companies = grant(['employees'], []);
  return { admin: false, keyName: 'importer', grant: (p) => grants[p], grantOfObject: () => undefined };
}

/** The messages of the 400 a header gets. */
function problems(header: string[], access: Access = admin, plural = 'people'): string[] {
  try {
    planColumns(catalog.require(plural), catalog, header, access);
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { message: string[] }).message;
  }
  throw new Error('no 400');
}

describe('planColumns', () => {
  it('plans every column an export writes, join columns and relations by a unique value', () => {
    const plan = planColumns(
      people,
      catalog,
      [
        'id',
        'name.firstName',
        'city',
        'companyId',
        'company.domainName.primaryLinkUrl',
        'createdAt',
        'updatedAt',
        'deletedAt',
      ],
      admin,
    );
    expect(plan.columns.map((c) => c.kind)).toEqual([
      'id',
      'sub',
      'field',
      'field',
      'relation',
      'createdAt',
      'ignored',
      'ignored',
    ]);
    expect(plan.relations).toEqual([
      {
        column: 'company.domainName.primaryLinkUrl',
        relation: 'company',
        joinColumn: 'companyId',
        target: 'companies',
        targetTable: 'company',
        targetColumn: 'domainNamePrimaryLinkUrl',
        targetPath: 'domainName.primaryLinkUrl',
      },
    ]);
  });

  it('accepts a write-only field (it is writable) and ignores a field the service sets', () => {
    expect(planColumns(catalog.require('webhooks'), catalog, ['targetUrl', 'secret'], admin).columns[1].kind).toBe(
      'field',
    );
    expect(planColumns(catalog.require('attachments'), catalog, ['name', 'size'], admin).columns[1].kind).toBe(
      'ignored',
    );
  });

  it('names every bad column at once', () => {
    expect(
      problems([
        'city',
        'nickname',
        'name',
        'name.middleName',
        'company.name',
        'company.id',
        'city',
        'emails.primaryEmail',
        'city',
        'pet.name',
      ]),
    ).toEqual([
      "Column 'nickname' is not a field of 'person'",
      "Column 'name' is a composite field: name its sub-fields, e.g. name.firstName",
      "Column 'name.middleName' is not a field of 'person'",
      "Column 'company.name': 'name' is not a unique field of 'company'",
      "Column 'company.id': use the join column 'companyId'",
      "Column 'city' is repeated",
      "Column 'pet.name' is not a field of 'person'",
    ]);
  });

  it('refuses an empty header', () => {
    expect(problems([])).toEqual([expect.stringContaining('names no column')]);
    expect(problems([''])).toEqual([expect.stringContaining('names no column')]);
  });

  it('refuses hidden and read-only fields of a restricted key by name, and relations to what it may not read', () => {
    const access = restrictedAccess();
    expect(problems(['name.firstName', 'city', 'jobTitle', 'company.domainName.primaryLinkUrl'], access)).toEqual([
      "Field 'city' is not writable",
      "Field 'jobTitle' is not writable",
      "Column 'company.domainName.primaryLinkUrl': API key 'importer' may not read companies",
    ]);
    expect(
      planColumns(people, catalog, ['company.domainName.primaryLinkUrl'], restrictedAccess(true)).relations,
    ).toHaveLength(1);
    expect(planColumns(people, catalog, ['city', 'jobTitle'], admin).columns).toHaveLength(2);
  });

  it('plans NDJSON rows by what the key may not write', () => {
    expect([...planObjectRows(people, restrictedAccess()).unwritable].sort()).toEqual(['city', 'jobTitle']);
    expect(planObjectRows(people, admin).unwritable.size).toBe(0);
  });
});
