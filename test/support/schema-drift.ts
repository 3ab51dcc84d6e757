import { DataSource } from 'typeorm';

/** What a generated migration would contain: the SQL that would bring the database to the entities. */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((q) => q.query);
}

/** Indexes the entities declare (TypeORM-managed or not) that the database does not have, as `table.index`. */
export async function missingIndexes(dataSource: DataSource): Promise<string[]> {
  const declared = dataSource.entityMetadatas.flatMap((m) =>
    m.indices.map((index) => ({ table: m.tableName, name: index.name })),
  );
  const rows: { tablename: string; indexname: string }[] = await dataSource.query(
    `SELECT tablename, indexname FROM pg_indexes WHERE schemaname = 'public'`,
  );
  const present = new Set(rows.map((r) => `${r.tablename}.${r.indexname}`));
  return declared.map((d) => `${d.table}.${d.name}`).filter((key) => !present.has(key));
}
