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

  it('GET /ready answers 503 while a migration is pending, 200 once it is applied (API.md section 3)', async () => {
    const ready = () => t.http.get('/ready', { anonymous: true });
    expect((await ready()).status).toBe(200);
    // the newest migration, unrecorded: as on an instance started before `migration:run`
    const [newest] = await dataSource.query('SELECT * FROM "migrations" ORDER BY "timestamp" DESC LIMIT 1');
    await dataSource.query('DELETE FROM "migrations" WHERE "id" = $1', [newest.id]);
    try {
      const pending = await ready();
      expect(pending.status).toBe(503);
      expect(pending.body).toMatchObject({ statusCode: 503, error: 'ServiceUnavailableException' });
    } finally {
      await dataSource.query('INSERT INTO "migrations" ("id", "timestamp", "name") VALUES ($1, $2, $3)', [
        newest.id,
        newest.timestamp,
        newest.name,
      ]);
    }
    expect((await ready()).status).toBe(200);
  });

  it('the checks see drift: a dropped index and a dropped column are reported', async () => {
    await dataSource.query('DROP INDEX "IDX_company_duplicates_0"');
    await dataSource.query('ALTER TABLE "opportunity" DROP COLUMN "probability"'); // a column no index holds
    expect(await missingIndexes(dataSource)).toEqual(['company.IDX_company_duplicates_0']);
    expect((await pendingSchemaChanges(dataSource)).join('\n')).toMatch(/ALTER TABLE "opportunity" ADD "probability"/);
  });
});
