import { DataSource } from 'typeorm';
import { missingIndexes, pendingSchemaChanges } from '../support/schema-drift';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Migrations and entities must describe the same schema: on a database built by the migrations,
 * a generated migration would be empty, and every index an entity declares (including the ones
 * TypeORM does not manage: duplicate-criteria and NULLS FIRST sort indexes) exists.
 */
describe('schema drift: migrations match the entities', () => {
  let t: TestApp;
  let dataSource: DataSource;
  beforeAll(async () => {
    t = await startTestApp();
    dataSource = t.app.get(DataSource);
  });
  afterAll(async () => t?.close());

  it('a generated migration would be empty', async () => {
    expect(await pendingSchemaChanges(dataSource)).toEqual([]);
  });

  it('every declared index exists', async () => {
    const declared = dataSource.entityMetadatas.flatMap((m) => m.indices);
    expect(declared.length).toBeGreaterThan(100);
    expect(declared.some((i) => i.synchronize === false)).toBe(true);
    expect(await missingIndexes(dataSource)).toEqual([]);
  });

  it('the checks see drift: a dropped index and a dropped column are reported', async () => {
    await dataSource.query('DROP INDEX "IDX_company_duplicates_0"');
    await dataSource.query('ALTER TABLE "opportunity" DROP COLUMN "closeDate"');
    expect(await missingIndexes(dataSource)).toEqual(['company.IDX_company_duplicates_0']);
    expect((await pendingSchemaChanges(dataSource)).join('\n')).toMatch(/ALTER TABLE "opportunity" ADD "closeDate"/);
  });
});
