import { statementKind } from './statement-kind';

describe('statementKind', () => {
  it('names a statement by its first keyword', () => {
    expect(statementKind('SELECT 1')).toBe('select');
    expect(statementKind('  insert into "person" ("id") VALUES ($1)')).toBe('insert');
    expect(statementKind('UPDATE "person" SET "x" = $1')).toBe('update');
    expect(statementKind('DELETE FROM "person" WHERE "id" = $1')).toBe('delete');
    expect(statementKind('COPY "person" FROM STDIN')).toBe('copy');
    expect(statementKind('BEGIN; SET LOCAL statement_timeout = 5000')).toBe('transaction');
    expect(statementKind('COMMIT')).toBe('transaction');
    expect(statementKind('VACUUM ANALYZE "person"')).toBe('other');
    expect(statementKind('')).toBe('other');
  });

  it('skips leading comments', () => {
    expect(statementKind('-- the page\nSELECT 1')).toBe('select');
    expect(statementKind('/* count */ SELECT count(*) FROM "person"')).toBe('select');
  });

  it('counts a WITH as the write it holds, else as a select', () => {
    expect(statementKind('WITH c AS (UPDATE "person" SET "x" = 1 RETURNING *) SELECT * FROM c')).toBe('update');
    expect(statementKind('WITH n AS (INSERT INTO "person" VALUES ($1) RETURNING *) SELECT 1')).toBe('insert');
    expect(statementKind('WITH d AS (DELETE FROM "person" RETURNING *) SELECT 1')).toBe('delete');
    expect(statementKind('WITH t AS (SELECT 1) SELECT * FROM t')).toBe('select');
  });
});
