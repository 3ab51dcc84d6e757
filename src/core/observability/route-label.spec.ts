import { methodLabel, routeLabel } from './route-label';

describe('route labels', () => {
  it('spells a route template as OpenAPI does, the same for both adapters', () => {
    expect(routeLabel('/rest/people/:id', '/rest/people/5b8f')).toBe('/rest/people/{id}');
    expect(routeLabel('/rest/batch/people', '/rest/batch/people')).toBe('/rest/batch/people');
    expect(routeLabel('/rest/files/:id/:name', '/rest/files/1/a.txt')).toBe('/rest/files/{id}/{name}');
  });

  it('collapses the catch-all and requests no route took into one value', () => {
    expect(routeLabel('/rest/*path', '/rest/nope/123')).toBe('unmatched');
    expect(routeLabel('/rest/*', '/rest/nope/123')).toBe('unmatched');
    expect(routeLabel(undefined, '/favicon.ico')).toBe('unmatched');
  });

  it('gives Swagger UI one value whatever serves its assets', () => {
    expect(routeLabel(undefined, '/rest/docs')).toBe('/rest/docs');
    expect(routeLabel('/rest/docs/*', '/rest/docs/swagger-ui.css')).toBe('/rest/docs');
    expect(routeLabel(undefined, '/rest/docsx')).toBe('unmatched');
  });

  it('keeps the known methods and folds any other into _OTHER', () => {
    expect(methodLabel('PATCH')).toBe('PATCH');
    expect(methodLabel('PROPFIND')).toBe('_OTHER');
    expect(methodLabel(undefined)).toBe('_OTHER');
  });
});
