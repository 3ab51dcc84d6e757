import { DEFAULT_NOW, FieldDefinition } from './field-definition';
import { checkFieldValue, isIsoDateTime, isUuid } from './field-rules';

const field = (type: FieldDefinition['type'], extra: Partial<FieldDefinition> = {}): FieldDefinition => ({
  name: 'f',
  type,
  nullable: false,
  default: '',
  ...extra,
});

describe('field rules', () => {
  it('absent values: required only without default on a non-nullable field', () => {
    expect(checkFieldValue(field('TEXT'), undefined)).toBeNull();
    expect(checkFieldValue(field('DATE_TIME', { default: undefined }), undefined)).toBe('{path} is required');
    expect(checkFieldValue(field('DATE_TIME', { default: DEFAULT_NOW }), undefined)).toBeNull();
    expect(checkFieldValue(field('UUID', { nullable: true, default: null }), undefined)).toBeNull();
  });

  it('null: only for nullable fields', () => {
    expect(checkFieldValue(field('TEXT'), null)).toBe('{path} must not be null');
    expect(checkFieldValue(field('TEXT', { nullable: true }), null)).toBeNull();
  });

  it.each([
    ['TEXT', 'x', 5],
    ['NUMBER', 1.5, '1.5'],
    ['NUMBER', -3, Infinity],
    ['NUMERIC', 10, NaN],
    ['BOOLEAN', false, 'false'],
    ['DATE_TIME', '2026-11-21T10:04:05.123Z', '2026-13-01T00:00:00Z'],
    ['DATE_TIME', '2024-02-29', '2026-02-29'],
    ['DATE', '2026-11-21', '2026-11-21T00:00:00Z'],
    ['UUID', '0b8f5c1e-6d2a-4c1e-9f3a-2b7c8d9e0f1a', '0b8f5c1e6d2a4c1e9f3a2b7c8d9e0f1a'],
    ['ARRAY', ['a'], [1]],
    ['RAW_JSON', { a: [1, { b: null }] }, { a: 'x\u0000' }],
  ] as const)('%s accepts %j and refuses %j', (type, good, bad) => {
    expect(checkFieldValue(field(type), good)).toBeNull();
    expect(checkFieldValue(field(type), bad)).not.toBeNull();
  });

  it('SELECT and MULTI_SELECT check options with the contract message', () => {
    const select = field('SELECT', { options: ['NEW', 'DONE'] });
    expect(checkFieldValue(select, 'NEW')).toBeNull();
    expect(checkFieldValue(select, 'OLD')).toBe(`Invalid value 'OLD' for field "{path}"`);
    const multi = field('MULTI_SELECT', { options: ['A', 'B'] });
    expect(checkFieldValue(multi, ['A', 'B'])).toBeNull();
    expect(checkFieldValue(multi, ['A', 'C'])).toBe(`Invalid value 'C' for field "{path}"`);
  });

  it('text: no NUL characters; URLs when asked', () => {
    expect(checkFieldValue(field('TEXT'), 'a\u0000b')).toBe('{path} must not contain NUL characters');
    const url = field('TEXT', { httpUrl: true });
    expect(checkFieldValue(url, 'https://example.com/hook')).toBeNull();
    expect(checkFieldValue(url, 'ftp://example.com')).toBe('{path} must be a public http(s) URL');
    expect(checkFieldValue(url, 'javascript:alert(1)')).not.toBeNull();
  });

  it('composites must be objects', () => {
    expect(checkFieldValue(field('LINKS', { default: {} }), {})).toBeNull();
    expect(checkFieldValue(field('LINKS', { default: {} }), [])).toBe('{path} must be an object');
  });

  it('helpers', () => {
    expect(isUuid('0B8F5C1E-6D2A-4C1E-9F3A-2B7C8D9E0F1A')).toBe(true);
    expect(isIsoDateTime('2026-11-21T24:00:00Z')).toBe(false);
    expect(isIsoDateTime('2026-11-21T23:59:59+05:30')).toBe(true);
  });
});
