import { StatementNames } from './statement-names';

describe('StatementNames', () => {
  it('names a text from its third sending on, the same name every time, distinct texts distinct names', () => {
    const names = new StatementNames(4, 3);
    expect(names.nameOf('SELECT 1')).toBeUndefined();
    expect(names.nameOf('SELECT 1')).toBeUndefined();
    const name = names.nameOf('SELECT 1');
    expect(name).toMatch(/^w_[0-9a-f]{16}$/);
    expect(names.nameOf('SELECT 1')).toBe(name);
    for (let i = 0; i < 3; i++) names.nameOf('SELECT 2');
    expect(names.nameOf('SELECT 2')).toMatch(/^w_/);
    expect(names.nameOf('SELECT 2')).not.toBe(name);
  });

  it('names at most `max` texts; the others stay unnamed however often they come', () => {
    const names = new StatementNames(2, 1);
    expect(names.nameOf('a')).toBeDefined();
    expect(names.nameOf('b')).toBeDefined();
    for (let i = 0; i < 10; i++) expect(names.nameOf('c')).toBeUndefined();
    expect(names.nameOf('a')).toBeDefined();
  });

  it('counts a bounded number of texts: past it the counts start again', () => {
    const names = new StatementNames(8, 2, 3);
    names.nameOf('x');
    for (const t of ['p', 'q', 'r']) names.nameOf(t); // 'x' was counted among 3, then the counts restart
    expect(names.nameOf('x')).toBeUndefined();
    expect(names.nameOf('x')).toBeDefined();
  });
});
