import helmet from 'helmet';
import { Middleware, precomputedHeaders } from './request-hardening';

/** A response that records its headers as Node's ServerResponse keeps them. */
function response() {
  const headers = new Map<string, unknown>([['x-powered-by', 'Express']]);
  return {
    headers,
    setHeader: (name: string, value: unknown) => void headers.set(name.toLowerCase(), value),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
}

function run(middleware: Middleware, url: string) {
  const res = response();
  let nextError: unknown = 'not called';
  middleware({ url, method: 'GET', headers: { host: 'x.example' } }, res, (error?: unknown) => (nextError = error));
  return { headers: Object.fromEntries(res.headers), nextError };
}

describe('precomputedHeaders', () => {
  it("sets exactly helmet's headers, without running helmet per request", () => {
    const original = helmet();
    const fast = precomputedHeaders(original);
    expect(fast).not.toBe(original);
    const expected = run(original, '/rest/people');
    expect(expected.headers['content-security-policy']).toContain("default-src 'self'");
    expect(expected.headers['x-powered-by']).toBeUndefined();
    for (const url of ['/rest/people', '/rest/docs', '/rest/open-api/core?x=1'])
      expect(run(fast, url)).toEqual(expected);
  });

  it('keeps a middleware whose headers depend on the request', () => {
    let n = 0;
    const nonce: Middleware = (_req, res, next) => {
      res.setHeader('Content-Security-Policy', `script-src 'nonce-${n++}'`);
      next();
    };
    expect(precomputedHeaders(nonce)).toBe(nonce);
    const byPath: Middleware = (req, res, next) => {
      if (String(req.url).startsWith('/rest/docs')) res.setHeader('X-Docs', '1');
      next();
    };
    expect(precomputedHeaders(byPath)).toBe(byPath);
  });

  it('keeps a middleware that fails or does not call next', () => {
    const failing: Middleware = (_req, _res, next) => next(new Error('no'));
    const silent: Middleware = () => undefined;
    expect(precomputedHeaders(failing)).toBe(failing);
    expect(precomputedHeaders(silent)).toBe(silent);
  });
});
