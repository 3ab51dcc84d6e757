import { BadRequestException } from '@nestjs/common';
import { CollectionCatalog } from '../model/collection-catalog';
import { QueryError } from '../errors/query-error';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { UnauthenticatedException } from '../errors/error-names';

describe('AllExceptionsFilter.classify', () => {
  const filter = new AllExceptionsFilter({} as never, new CollectionCatalog([]));
  (filter as unknown as { logger: { error: () => void; warn: () => void } }).logger = {
    error: () => undefined,
    warn: () => undefined,
  };

  it('keeps HTTP exceptions and their messages', () => {
    expect(filter.classify(new BadRequestException(['a', 'b']))).toEqual({ status: 400, messages: ['a', 'b'] });
    expect(filter.classify(new UnauthenticatedException('no'))).toEqual({
      status: 401,
      messages: ['no'],
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
    expect(filter.classify(new QueryError('bad filter'))).toEqual({ status: 400, messages: ['bad filter'] });
  });

  it('answers unknown errors with a generic 500 that leaks nothing', () => {
    const error = Object.assign(
      new Error('syntax error at or near "SELEC" in SELECT * FROM "person" WHERE password=hunter2'),
      {
        code: '42601',
        stack: 'Error\n    at query (/app/node_modules/pg/lib/client.js:1:1)',
      },
    );
    const classified = filter.classify(error);
    expect(classified).toEqual({ status: 500, messages: ['Internal server error'] });
    expect(JSON.stringify(classified)).not.toMatch(/SELECT|hunter2|node_modules/);
  });

  it('maps body parser errors of both adapters', () => {
    expect(filter.classify(Object.assign(new Error('too big'), { type: 'entity.too.large', status: 413 })).status).toBe(
      413,
    );
    expect(
      filter.classify(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }))
        .status,
    ).toBe(415);
  });

  it('maps an unreachable database to 503 with Retry-After', () => {
    expect(
      filter.classify(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ).toEqual({
      status: 503,
      messages: ['The database is unavailable; retry later'],
      headers: { 'Retry-After': '5' },
    });
  });
});
