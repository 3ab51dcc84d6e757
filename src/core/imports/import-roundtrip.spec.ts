import { stringify } from 'csv-stringify/sync';
import { Readable } from 'node:stream';
import { COLLECTION_DEFINITIONS } from '../../collections';
import { adminAccess } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import { csvColumns } from '../records/export-formats';
import { planColumns } from './import-columns';
import { openImportReader, RawRow } from './import-reader';
import { convertRow } from './import-row';
import type { ImportRow } from './import-types';

/** What the CSV export writes (src/core/records/export-formats.ts), the import reads back. */
const catalog = new CollectionCatalog(COLLECTION_DEFINITIONS);
const admin = adminAccess('admin');

describe('an export read back', () => {
  it('gives back the records the CSV export wrote, tricky values included', async () => {
    const meta = catalog.require('people');
    const records = [
      {
        id: '0d1b2c3a-0000-4000-8000-000000000001',
        name: { firstName: 'Zoë, "Z"', lastName: 'line\nbreak' },
        city: 'cr\rlf\r\nend',
        jobTitle: ';|\t',
        position: 1.5,
        emails: { primaryEmail: 'z@x.io', additionalEmails: ['a@x.io', 'b,"c"@x.io'] },
        companyId: null,
        createdAt: '2020-01-02T03:04:05.000Z',
        updatedAt: '2021-01-01T00:00:00.000Z',
        deletedAt: null,
      },
      {
        id: '0d1b2c3a-0000-4000-8000-000000000002',
        name: null,
        city: '東京 🏯',
        position: -2,
        emails: { primaryEmail: 'y@x.io', additionalEmails: null },
        companyId: '0d1b2c3a-0000-4000-8000-0000000000ff',
        createdAt: '2020-01-03T00:00:00.000Z',
        updatedAt: '2021-01-01T00:00:00.000Z',
        deletedAt: null,
      },
    ];
    const columns = csvColumns(meta, () => true);
    const options = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;
    const csv = stringify(
      [columns.map((c) => c.header), ...records.map((r) => columns.map((c) => c.cell(r)))],
      options,
    );
    const reader = await openImportReader(Readable.from([Buffer.from(csv)]), { format: 'csv', delimiter: ',' });
    const plan = planColumns(meta, catalog, reader.header!, admin);
    const rows: ImportRow[] = [];
    for await (const raw of reader.rows as AsyncIterable<RawRow>)
      rows.push(convertRow(meta, plan, raw, { operation: 'upsert', blank: 'ignore' }));
    // record 1 holds a LF, a CR and a CR LF: record 2 starts 3 lines later than a one-line record would
    expect(rows.map((r) => r.line)).toEqual([2, 6]);
    expect(rows.map((r) => r.errors)).toEqual([[], []]);
    expect(rows.map((r) => r.createdAt)).toEqual(records.map((r) => r.createdAt));
    expect(rows[0].record).toEqual({
      id: records[0].id,
      name: records[0].name,
      city: records[0].city,
      jobTitle: ';|\t',
      position: 1.5,
      emails: records[0].emails,
    });
    expect(rows[1].record).toEqual({
      id: records[1].id,
      city: '東京 🏯',
      position: -2,
      emails: { primaryEmail: 'y@x.io' },
      companyId: records[1].companyId,
    });
  });
});
