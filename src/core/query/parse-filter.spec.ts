import { FilterNode, parseFilter } from './parse-filter';
import { QueryError } from '../errors/query-error';

const p = (path: string, operator: string, text: string, quoted = false) => ({
  kind: 'predicate',
  path: path.split('.'),
  operator,
  value: { kind: 'scalar', value: { text, quoted } },
  position: expect.any(Number),
});

describe('parseFilter', () => {
  it('parses one predicate with a composite path', () => {
    expect(parseFilter('name.firstName[eq]:John')).toEqual(p('name.firstName', 'eq', 'John'));
  });

  it('treats a top-level comma list as AND', () => {
    expect(parseFilter('city[eq]:Paris, employees[gte]:10')).toEqual({
      kind: 'and',
      children: [p('city', 'eq', 'Paris'), p('employees', 'gte', '10')],
    });
  });

  it('nests and / or / not', () => {
    const tree = parseFilter('or(not(city[eq]:Paris),and(a[is]:NULL,b[lt]:3))') as {
      kind: string;
      children: FilterNode[];
    };
    expect(tree.kind).toBe('or');
    expect(tree.children[0]).toEqual({ kind: 'not', child: p('city', 'eq', 'Paris') });
    expect(tree.children[1]).toEqual({ kind: 'and', children: [p('a', 'is', 'NULL'), p('b', 'lt', '3')] });
  });

  it('keeps commas, colons, brackets and parentheses inside quoted values, with escapes', () => {
    expect(parseFilter('name[eq]:"a, b: [c] (d)"')).toEqual(p('name', 'eq', 'a, b: [c] (d)', true));
    expect(parseFilter(`name[eq]:'it\\'s'`)).toEqual(p('name', 'eq', "it's", true));
    expect(parseFilter('name[eq]:"say \\"hi\\" \\\\ bye"')).toEqual(p('name', 'eq', 'say "hi" \\ bye', true));
  });

  it('keeps colons in bare values (dates)', () => {
    expect(parseFilter('createdAt[gte]:2026-11-21T10:04:05Z')).toEqual(p('createdAt', 'gte', '2026-11-21T10:04:05Z'));
  });

  it('parses lists with quoted and bare items, and empty lists', () => {
    expect(parseFilter('city[in]:["Lyon, FR",Paris, \'Nice\']')).toEqual({
      kind: 'predicate',
      path: ['city'],
      operator: 'in',
      value: {
        kind: 'list',
        items: [
          { text: 'Lyon, FR', quoted: true },
          { text: 'Paris', quoted: false },
          { text: 'Nice', quoted: true },
        ],
      },
      position: 0,
    });
    expect(parseFilter('id[in]:[]')).toMatchObject({ value: { kind: 'list', items: [] } });
  });

  it.each([
    ['', /empty/],
    ['name', /position 4: expected '\[' and an operator after 'name'/],
    ['name[equals]:x', /unknown operator 'equals', expected one of eq, neq/],
    ['name[eq]x', /position 8: expected ':' and a value/],
    ['name[eq]:', /expected a value, found end of filter/],
    ['name[eq]:"open', /unterminated quoted value/],
    ['name[eq]:"bad \\n escape"', /unknown escape '\\n'/],
    ['and(name[eq]:x', /expected ',' or '\)', found end of filter/],
    ['not(a[eq]:1,b[eq]:2)', /not\(...\) takes exactly one condition/],
    ['a[eq]:1)', /expected ',' or end of filter, found '\)'/],
    ['a[in]:[1,2', /expected ',' or '\]' in the list/],
    ['1abc[eq]:1', /expected a field name/],
  ])('rejects %j with a positioned message', (input, message) => {
    expect(() => parseFilter(input)).toThrow(QueryError);
    expect(() => parseFilter(input)).toThrow(message);
  });

  it('limits nesting depth', () => {
    const nested = (n: number) => 'and('.repeat(n) + 'a[eq]:1' + ')'.repeat(n);
    expect(() => parseFilter(nested(32))).not.toThrow();
    expect(() => parseFilter(nested(33))).toThrow(/nesting deeper than 32 levels/);
    expect(() => parseFilter(nested(5), 4)).toThrow(/nesting deeper than 4 levels/);
  });
});
