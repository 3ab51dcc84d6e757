import { urlWithoutQuery } from './sdk';

describe('urlWithoutQuery (the url.full of a webhook POST span)', () => {
  it('drops the query string, which may hold a token', () => {
    expect(urlWithoutQuery({ protocol: 'https:', hostname: 'hooks.example.com', path: '/in?token=secret' })).toEqual({
      'url.full': 'https://hooks.example.com/in',
    });
  });

  it('puts an IPv6 address in brackets, with its port after them', () => {
    expect(urlWithoutQuery({ hostname: '::1', port: 8080, path: '/hook?x=1' })).toEqual({
      'url.full': 'http://[::1]:8080/hook',
    });
    expect(urlWithoutQuery({ hostname: '[::1]', port: 8080, path: '/hook' })).toEqual({
      'url.full': 'http://[::1]:8080/hook',
    });
  });

  it('defaults to localhost and /', () => {
    expect(urlWithoutQuery({})).toEqual({ 'url.full': 'http://localhost/' });
  });
});
