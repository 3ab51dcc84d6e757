import { COLLECTION_DEFINITIONS } from '../../collections';
import { Access, adminAccess, Grant } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import { planColumns, planObjectRows } from './import-columns';
import { ConvertOptions, convertRow } from './import-row';
import type { ImportRow } from './import-types';

const catalog = new CollectionCatalog(COLLECTION_DEFINITIONS);
const admin = adminAccess('admin');
const CREATE: ConvertOptions = { operation: 'create', blank: 'ignore' };

/** One CSV row of a collection, its header and cells given side by side. */
function csvRow(
  plural: string,
  header: string[],
  cells: string[],
  options = CREATE,
  access: Access = admin,
): ImportRow {
  const meta = catalog.require(plural);
  return convertRow(meta, planColumns(meta, catalog, header, access), { line: 2, cells }, options);
}

function ndjsonRow(plural: string, object: unknown, access: Access = admin): ImportRow {
  const meta = catalog.require(plural);
  return convertRow(meta, planObjectRows(meta, access), { line: 7, object }, CREATE);
}

describe('convertRow, CSV', () => {
  it('converts numbers, booleans and sub-fields into the API body', () => {
    const header = [
      'name',
      'employees',
      'idealCustomerProfile',
      'annualRecurringRevenue.amountMicros',
      'annualRecurringRevenue.currencyCode',
    ];
    expect(csvRow('companies', header, ['Acme', '12.5', 'TRUE', '1500000', 'EUR'])).toEqual({
      line: 2,
      record: {
        name: 'Acme',
        employees: 12.5,
        idealCustomerProfile: true,
        annualRecurringRevenue: { amountMicros: 1500000, currencyCode: 'EUR' },
      },
      relations: [],
      errors: [],
    });
  });

  it("passes unconvertible text on, for the API's own messages, attributed to their columns", () => {
    const row = csvRow('companies', ['employees', 'idealCustomerProfile', 'address.addressLat'], ['abc', 'yes', '1,5']);
    expect(row.record).toBeUndefined();
    expect(row.errors).toEqual([
      { line: 2, column: 'employees', code: 'INVALID_VALUE', message: 'employees must be a finite number' },
      {
        line: 2,
        column: 'address.addressLat',
        code: 'INVALID_VALUE',
        message: 'address.addressLat must be a finite number',
      },
      {
        line: 2,
        column: 'idealCustomerProfile',
        code: 'INVALID_VALUE',
        message: 'idealCustomerProfile must be a boolean',
      },
    ]);
    const other = csvRow('opportunities', ['stage', 'companyId'], ['NOPE', 'abc']).errors;
    expect(other.map((e) => [e.column, e.message])).toEqual([
      ['stage', `Invalid value 'NOPE' for field "stage"`],
      ['companyId', "'abc' is not a valid UUID (companyId)"],
    ]);
  });

  it('reads JSON columns, and refuses JSON text that does not parse', () => {
    const header = ['emails.primaryEmail', 'emails.additionalEmails', 'linkedinLink.secondaryLinks'];
    const ok = csvRow('people', header, ['a@x.io', '["b@x.io"]', '[{"url":"https://x.io","label":"x"}]']);
    expect(ok.record).toEqual({
      emails: { primaryEmail: 'a@x.io', additionalEmails: ['b@x.io'] },
      linkedinLink: { secondaryLinks: [{ url: 'https://x.io', label: 'x' }] },
    });
    const bad = csvRow('people', header, ['a@x.io', '[b@x.io', '"x"']).errors;
    expect(bad.map((e) => [e.column, e.code])).toEqual([
      ['emails.additionalEmails', 'INVALID_VALUE'],
      ['linkedinLink.secondaryLinks', 'INVALID_VALUE'],
    ]);
    expect(bad[0].message).toBe(`'emails.additionalEmails' must be JSON text, e.g. {"key":"value"} or ["a","b"]`);
    expect(bad[1].message).toBe('linkedinLink.secondaryLinks must be an array');
    expect(csvRow('webhooks', ['targetUrl', 'operations'], ['https://x.io', '[*']).errors[0].message).toBe(
      `'operations' must be JSON text, e.g. ["a","b"]`,
    );
  });

  it('leaves blank cells out with ignore, and clears them with clear', () => {
    const header = ['name.firstName', 'name.lastName', 'phone', 'city', 'companyId', 'id', 'createdAt'];
    const blanks = ['', 'Doe', '', '', '', '', ''];
    expect(csvRow('people', header, blanks).record).toEqual({ name: { lastName: 'Doe' } });
    const update: ConvertOptions = { operation: 'update', blank: 'clear' };
    expect(csvRow('people', header, blanks, update).record).toEqual({
      name: { firstName: '', lastName: 'Doe' },
      phone: null,
      city: '',
      companyId: null,
    });
  });

  it('gives REQUIRED for a missing required field on create, not on update', () => {
    expect(csvRow('webhooks', ['description'], ['x']).errors).toEqual([
      { line: 2, column: 'targetUrl', code: 'REQUIRED', message: 'targetUrl is required' },
    ]);
    expect(
      csvRow('webhooks', ['description', 'secret'], ['x', 's3cret'], { operation: 'upsert', blank: 'ignore' }).record,
    ).toEqual({
      description: 'x',
      secret: 's3cret',
    });
  });

  it('reads id, keeps createdAt beside the record and ignores updatedAt', () => {
    const id = '0D1B2C3A-0000-4000-8000-000000000001';
    const row = csvRow(
      'people',
      ['id', 'city', 'createdAt', 'updatedAt'],
      [id, 'Oslo', '2020-01-02T03:04:05.000Z', 'junk'],
    );
    expect(row).toEqual({
      line: 2,
      record: { id: id.toLowerCase(), city: 'Oslo' },
      createdAt: '2020-01-02T03:04:05.000Z',
      relations: [],
      errors: [],
    });
    expect(csvRow('people', ['id', 'createdAt'], ['nope', 'yesterday']).errors.map((e) => e.column)).toEqual([
      'createdAt',
      'id',
    ]);
  });

  it('collects relations by a unique value, and refuses a relation set twice', () => {
    const header = ['city', 'companyId', 'company.domainName.primaryLinkUrl'];
    expect(csvRow('people', header, ['Oslo', '', 'https://acme.com'], { operation: 'create', blank: 'clear' })).toEqual(
      {
        line: 2,
        record: { city: 'Oslo' },
        relations: [
          { column: 'company.domainName.primaryLinkUrl', joinColumn: 'companyId', value: 'https://acme.com' },
        ],
        errors: [],
      },
    );
    expect(csvRow('people', header, ['Oslo', '', ''], { operation: 'update', blank: 'clear' }).record).toEqual({
      city: 'Oslo',
      companyId: null,
    });
    const both = csvRow('people', header, ['', '0d1b2c3a-0000-4000-8000-000000000001', 'https://acme.com']);
    expect(both.errors.map((e) => [e.column, e.code])).toEqual([
      ['company.domainName.primaryLinkUrl', 'INVALID_VALUE'],
    ]);
  });

  it('makes a malformed raw row one MALFORMED_ROW error', () => {
    const meta = catalog.require('people');
    const row = convertRow(
      meta,
      planObjectRows(meta, admin),
      { line: 4, malformed: 'Row has 3 cells, the header has 2' },
      CREATE,
    );
    expect(row).toEqual({
      line: 4,
      relations: [],
      errors: [{ line: 4, column: null, code: 'MALFORMED_ROW', message: 'Row has 3 cells, the header has 2' }],
    });
  });
});

describe('convertRow, NDJSON', () => {
  const readOnlyCity: Grant = {
    actions: new Set(['create']),
    hidden: new Set(),
    readOnly: new Set(['city']),
    omitted: new Set(),
  };
  const restricted: Access = {
    admin: false,
    keyName: 'k',
    grant: () => readOnlyCity,
    grantOfObject: () => readOnlyCity,
  };

  it('takes an object as a create body, with createdAt beside it and updatedAt ignored', () => {
    const row = ndjsonRow('people', {
      city: 'Oslo',
      name: { firstName: 'A' },
      createdAt: '2020-01-02',
      updatedAt: 'x',
    });
    expect(row).toEqual({
      line: 7,
      record: { city: 'Oslo', name: { firstName: 'A' } },
      createdAt: '2020-01-02',
      relations: [],
      errors: [],
    });
    expect(ndjsonRow('people', { foo: 1 }).errors).toEqual([
      { line: 7, column: 'foo', code: 'INVALID_VALUE', message: 'property foo should not exist' },
    ]);
  });

  it('refuses a field the key may not write by name, before its value is looked at', () => {
    expect(ndjsonRow('people', { city: 42, jobTitle: 42 }, restricted).errors).toEqual([
      { line: 7, column: 'city', code: 'INVALID_VALUE', message: "Field 'city' is not writable" },
    ]);
  });

  it('makes a value that is not an object a MALFORMED_ROW', () => {
    expect(ndjsonRow('people', [1]).errors.map((e) => e.code)).toEqual(['MALFORMED_ROW']);
  });
});
