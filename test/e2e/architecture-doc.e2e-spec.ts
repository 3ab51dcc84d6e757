import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Repository paths a page names: `src/...`, `test/...`, `docs/...` in code spans, and its relative links. */
export function namedPaths(markdown: string, folder: string): string[] {
  const spans = [...markdown.matchAll(/`((?:src|test|docs|bench|deploy)\/[^`\s]*)`/g)].map((m) => m[1]);
  const links = [...markdown.matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)]
    .map((m) => m[1])
    .filter((link) => !/^[a-z]+:/.test(link))
    .map((link) => join(folder, link).replace(`${ROOT}/`, ''));
  return [...new Set([...spans, ...links])];
}

/** docs/architecture.md (and every page of docs/ and the README) names only paths that exist. */
describe('documentation paths', () => {
  const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)];

  it('finds the paths a page names (the check is not blind)', () => {
    expect(namedPaths('see `src/core/nope.ts` and [x](other.md)', join(ROOT, 'docs'))).toEqual([
      'src/core/nope.ts',
      'docs/other.md',
    ]);
    expect(
      namedPaths(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'), join(ROOT, 'docs')).length,
    ).toBeGreaterThan(30);
  });

  // patterns (`src/**/*.spec.ts`, `src/collections/<plural>/`) and what runs write (git-ignored) are not paths of the tree
  const ignored = readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n').filter(Boolean);
  const isTreePath = (path: string) => !/[*<]/.test(path) && !ignored.some((entry) => path.startsWith(entry));

  it.each(pages)('%s names only paths that exist', (page) => {
    const folder = join(ROOT, page, '..');
    const missing = namedPaths(readFileSync(join(ROOT, page), 'utf8'), folder)
      .filter(isTreePath)
      .filter((path) => !existsSync(join(ROOT, path.replace(/[:.,]$/, ''))));
    expect(missing).toEqual([]);
  });
});
