import { filterSql, whereSql } from './filter-sql';
import { parseFilter } from './parse-filter';
import { filterMentions, resolveFilter } from './resolve-filter';
import { SqlParams } from './sql-params';
import { peopleTarget } from './query-target.fixture';

const target = peopleTarget;

/** A filter string parsed and checked against the target. */
const checked = (text: string) => resolveFilter(target, parseFilter(text));

describe('filterSql', () => {
  it('binds values and quotes columns from metadata only', () => {
    const params = new SqlParams();
    const sql = filterSql(target, checked('or(name.firstName[ilike]:"%jo%",not(employees[in]:[1,2]))'), params);
    expect(sql).toBe('("nameFirstName" ILIKE $1 OR NOT ("employees" = ANY($2)))');
    expect(params.values).toEqual(['%jo%', [1, 2]]);
  });

  it('escapes LIKE wildcards of startsWith / endsWith', () => {
    const params = new SqlParams();
    filterSql(target, checked('name[startsWith]:50%_a\\b,name[endsWith]:x'), params);
    expect(params.values).toEqual(['50\\%\\_a\\\\b%', '%x']);
  });

  it('never puts a value in the SQL text', () => {
    const params = new SqlParams();
    const sql = filterSql(target, checked(`name[eq]:"'; DROP TABLE person; --"`), params);
    expect(sql).toBe('"name" = $1');
  });
});

describe('resolveFilter', () => {
  it('refuses what the compiler would otherwise meet: unknown fields, operators of another type, bad values', () => {
    expect(() => checked('nope[eq]:1')).toThrow("field 'nope' does not exist in 'person' object");
    expect(() => checked('employees[ilike]:x')).toThrow(
      "Operator 'ilike' cannot be used on field 'employees' (NUMBER)",
    );
    expect(() => checked('employees[eq]:ten')).toThrow(
      "Invalid filter value 'ten' for field 'employees': expected a number",
    );
    expect(() => checked('employees[in]:3')).toThrow("Operator 'in' on 'employees' expects a list");
    expect(() => checked('name[is]:EMPTY')).toThrow("Operator 'is' on 'name' expects NULL or NOT_NULL, got 'EMPTY'");
  });

  it('reports the first problem from the left, as the filter reads', () => {
    expect(() => checked('and(employees[eq]:x,nope[eq]:1)')).toThrow("Invalid filter value 'x'");
  });

  it('converts values once: numbers, lists, LIKE patterns', () => {
    expect(checked('employees[gte]:10')).toMatchObject({ ref: { column: 'employees' }, operator: 'gte', value: 10 });
    expect(checked('employees[in]:[1,2]')).toMatchObject({ value: [1, 2] });
    expect(checked('name[endsWith]:a_b')).toMatchObject({ value: '%a\\_b' });
  });
});

describe('whereSql', () => {
  it('adds the live-record condition unless the filter names deletedAt, or the soft-deleted one for restores', () => {
    const live = resolveFilter(target, parseFilter('name[eq]:a'));
    expect(whereSql(target, live, 'filtered', new SqlParams())).toBe('"deletedAt" IS NULL AND "name" = $1');
    expect(whereSql(target, undefined, 'filtered', new SqlParams())).toBe('"deletedAt" IS NULL');
    expect(whereSql(target, live, 'deleted', new SqlParams())).toBe('"deletedAt" IS NOT NULL AND "name" = $1');
    const named = resolveFilter(target, parseFilter('deletedAt[is]:NOT_NULL'));
    expect(filterMentions(named, 'deletedAt')).toBe(true);
    expect(whereSql(target, named, 'filtered', new SqlParams())).toBe('"deletedAt" IS NOT NULL');
    expect(whereSql(target, named, 'live', new SqlParams())).toBe('"deletedAt" IS NULL AND "deletedAt" IS NOT NULL');
  });
});
