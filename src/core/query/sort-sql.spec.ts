import { keysetSql, orderBySql, resolveSort, reverseSort } from './sort-sql';
import { SqlParams } from './sql-params';
import { parseOrderBy } from './parse-order-by';
import { peopleTarget } from './query-target.fixture';

const target = peopleTarget;

/** Every $n used in the SQL, to check that each bound parameter is used exactly as numbered. */
const placeholders = (sql: string) =>
  [...new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);

describe('ORDER BY', () => {
  it('writes no NULLS clause on NOT NULL columns, so that the (key, id) index serves every direction', () => {
    for (const direction of ['AscNullsFirst', 'AscNullsLast']) {
      expect(orderBySql(resolveSort(target, parseOrderBy(`createdAt[${direction}]`)))).toBe(
        '"createdAt" ASC, "id" ASC',
      );
    }
    for (const direction of ['DescNullsFirst', 'DescNullsLast']) {
      expect(orderBySql(resolveSort(target, parseOrderBy(`createdAt[${direction}]`)))).toBe(
        '"createdAt" DESC, "id" DESC',
      );
    }
    expect(orderBySql(resolveSort(target, parseOrderBy('createdAt')))).toBe('"createdAt" ASC, "id" ASC');
    expect(orderBySql(resolveSort(target, parseOrderBy('id')))).toBe('"id" ASC');
    expect(orderBySql(resolveSort(target, parseOrderBy('createdAt[DescNullsLast],id[DescNullsFirst]')))).toBe(
      '"createdAt" DESC, "id" DESC',
    );
  });

  it('keeps the placement asked for on nullable columns; id follows the last key and flips with it', () => {
    expect(orderBySql(resolveSort(target, parseOrderBy('employees')))).toBe('"employees" ASC NULLS FIRST, "id" ASC');
    expect(orderBySql(resolveSort(target, parseOrderBy('employees[DescNullsLast]')))).toBe(
      '"employees" DESC NULLS LAST, "id" DESC',
    );
    expect(orderBySql(reverseSort(resolveSort(target, parseOrderBy('employees[DescNullsLast]'))))).toBe(
      '"employees" ASC NULLS FIRST, "id" ASC',
    );
    expect(orderBySql(resolveSort(target, parseOrderBy('name[DescNullsLast],employees[AscNullsLast]')))).toBe(
      '"name" DESC, "employees" ASC NULLS LAST, "id" ASC',
    );
  });
});

describe('keyset pagination SQL', () => {
  it('uses one row comparison for a uniform NOT NULL sort', () => {
    const keys = resolveSort(target, parseOrderBy('createdAt[DescNullsFirst]'));
    const params = new SqlParams();
    expect(keysetSql(keys, ['2026-01-01 00:00:00+00', 'x'], params)).toBe('("createdAt", "id") < ($1, $2)');
    expect(orderBySql(keys)).toBe('"createdAt" DESC, "id" DESC');
    expect(keysetSql(resolveSort(target, parseOrderBy('id')), ['x'], new SqlParams())).toBe('"id" > $1');
  });

  it('expands mixed and nullable sorts with NULL placement, every parameter used', () => {
    for (const [sort, values] of [
      ['employees[DescNullsLast],name', [2, 'b', 'id-1']],
      ['employees[AscNullsFirst],name[DescNullsLast]', [null, 'b', 'id-1']],
      ['employees[AscNullsLast]', [null, 'id-1']],
      ['employees[AscNullsLast]', [3, 'id-1']],
      ['employees[DescNullsFirst],name.firstName[DescNullsLast]', [3, null, 'id-1']],
      ['name.firstName[AscNullsFirst],employees[AscNullsFirst]', ['a', 2, 'id-1']],
    ] as const) {
      const keys = resolveSort(target, parseOrderBy(sort));
      for (const order of [keys, reverseSort(keys)]) {
        const params = new SqlParams();
        const sql = keysetSql(order, [...values], params);
        expect(placeholders(sql)).toEqual(params.values.map((_, i) => i + 1));
      }
    }
  });

  it('is one row comparison when NULLs sort before a non-null cursor value (an index range)', () => {
    const keys = resolveSort(target, parseOrderBy('employees[AscNullsFirst]'));
    expect(keysetSql(keys, [5, 'id-1'], new SqlParams())).toBe('("employees", "id") > ($1, $2)');
    // DescNullsLast backward is AscNullsFirst: the same index range
    const back = reverseSort(resolveSort(target, parseOrderBy('employees[DescNullsLast]')));
    expect(keysetSql(back, [5, 'id-1'], new SqlParams())).toBe('("employees", "id") > ($1, $2)');
    const two = resolveSort(target, parseOrderBy('name.firstName[AscNullsFirst],employees[AscNullsFirst]'));
    expect(keysetSql(two, ['a', 2, 'id-1'], new SqlParams())).toBe(
      '("nameFirstName", "employees", "id") > ($1, $2, $3)',
    );
  });

  it('places NULLs after a non-null cursor value when the sort puts them last', () => {
    const keys = resolveSort(target, parseOrderBy('employees[AscNullsLast]'));
    expect(keysetSql(keys, [5, 'id-1'], new SqlParams())).toBe(
      '(("employees", "id") > ($1, $2) OR "employees" IS NULL)',
    );
    expect(keysetSql(keys, [null, 'id-1'], new SqlParams())).toBe('("employees" IS NULL AND "id" > $1)');
  });

  it('puts every non-null value after a NULL cursor value when the sort puts NULLs first', () => {
    const keys = resolveSort(target, parseOrderBy('employees[DescNullsFirst]'));
    expect(keysetSql(keys, [null, 'id-1'], new SqlParams())).toBe(
      '("employees" IS NOT NULL OR ("employees" IS NULL AND "id" < $1))',
    );
    expect(keysetSql(keys, [4, 'id-1'], new SqlParams())).toBe('("employees", "id") < ($1, $2)');
  });

  it('expands a mixed-direction sort key by key, ending in a row comparison', () => {
    const keys = resolveSort(target, parseOrderBy('name[DescNullsLast],employees[AscNullsLast]'));
    expect(keysetSql(keys, ['b', 3, 'id-1'], new SqlParams())).toBe(
      '("name" < $1 OR ("name" = $2 AND (("employees", "id") > ($3, $4) OR "employees" IS NULL)))',
    );
  });
});
