import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * SQL is written by the statement owners only (see docs/architecture.md): in src/core, the
 * repository, query and database layers; in a collection, its `*.statements.ts`, its event
 * subscribers (`*.subscriber.ts`: their CTEs over the events of a write) and its entity's index
 * conditions (`*.entity.ts`); migrations. A service, a controller or a pipe that writes SQL fails here.
 */
const OWNERS = [
  /^src\/core\/(repository|query|database)\//,
  /^src\/collections\/[^/]+\/[^/]+\.(statements|subscriber|entity)\.ts$/,
  /^src\/migrations\//,
];

/** Statement text, not a word of a message: each pattern needs two SQL tokens together. */
const SQL = [
  /\bSELECT\b.*\bFROM\b/,
  /\bINSERT INTO\b/,
  /\bUPDATE\s+\S+\s+(AS\s+\w+\s+|\w\s+)?SET\b/,
  /\bDELETE FROM\b/,
  /"deletedAt" IS (NOT )?NULL/,
  /\bpg_advisory_\w+\(/,
  /\bSET LOCAL\b/,
  /\bRETURNING\b/,
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Lines of `file` that hold SQL, as `path:line`. */
export function sqlLines(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const code = line.replace(/^\s*(\/\/|\*|\/\*\*).*$/, '');
    return SQL.some((pattern) => pattern.test(code)) ? [`${file}:${i + 1}`] : [];
  });
}

describe('SQL placement', () => {
  const root = join(__dirname, '..');
  const files = sources(join(root, 'src')).map((path) => relative(root, path).split('\\').join('/'));

  it('finds SQL where it is (the check is not blind)', () => {
    expect(sqlLines('x.ts', 'const s = `SELECT "id" FROM ${table} WHERE "id" = $1`;')).toEqual(['x.ts:1']);
    expect(sqlLines('x.ts', 'tx.query(\'UPDATE "idempotencyKey" SET "status" = $3\')')).toEqual(['x.ts:1']);
    expect(sqlLines('x.ts', "case 'SELECT': return options; // a field type, not SQL")).toEqual([]);
    expect(files.filter((f) => OWNERS.some((o) => o.test(f))).length).toBeGreaterThan(10);
  });

  it('keeps SQL in the statement owners only', () => {
    const outside = files
      .filter((file) => !OWNERS.some((owner) => owner.test(file)))
      .flatMap((file) => sqlLines(file, readFileSync(join(root, file), 'utf8')));
    expect(outside).toEqual([]);
  });
});
