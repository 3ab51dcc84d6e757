import { constraintViolation, isBadInputError, isUnavailableError, PgError } from './db-errors';

const pg = (fields: Partial<PgError>): PgError => Object.assign(new Error(fields.message ?? 'db error'), fields);

describe('database error classification', () => {
  it('reads the column and value of constraint violations', () => {
    expect(
      constraintViolation(
        pg({ code: '23505', table: 'person', detail: 'Key ("emailsPrimaryEmail")=(a@b.c) already exists.' }),
      ),
    ).toEqual({ kind: 'unique', table: 'person', column: 'emailsPrimaryEmail', value: 'a@b.c' });
    expect(
      constraintViolation(
        pg({ code: '23503', table: 'person', detail: 'Key (companyId)=(x) is not present in table "company".' }),
      ),
    ).toEqual({ kind: 'foreign-key', table: 'person', column: 'companyId', value: 'x' });
    expect(constraintViolation(pg({ code: '23502', table: 'person', column: 'city' }))).toMatchObject({
      kind: 'not-null',
      column: 'city',
    });
    expect(
      constraintViolation(
        pg({ code: '23505', table: 'viewField', detail: 'Key ("fieldMetadataId", "viewId")=(a, b) already exists.' }),
      ),
    ).toEqual({ kind: 'unique', table: 'viewField', columns: ['fieldMetadataId', 'viewId'], value: 'a, b' });
    expect(constraintViolation(pg({ code: '42P01' }))).toBeUndefined();
  });

  it('tells bad input from outages', () => {
    expect(isBadInputError(pg({ code: '22P05' }))).toBe(true);
    expect(isBadInputError(pg({ code: '42601' }))).toBe(false);
    expect(isUnavailableError(pg({ code: 'ECONNREFUSED' }))).toBe(true);
    expect(isUnavailableError(pg({ code: '57P01' }))).toBe(true);
    expect(isUnavailableError(pg({ message: 'timeout exceeded when trying to connect' }))).toBe(true);
    expect(isUnavailableError(pg({ code: '23505' }))).toBe(false);
  });
});
