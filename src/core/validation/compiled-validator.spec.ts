import type { Type } from '@nestjs/common';
import { IsEmail } from 'class-validator';
import { COLLECTION_DEFINITIONS } from '../../collections';
import { TextField } from '../fields';
import { DeclaredField } from '../fields/define-field';
import { FieldDefinition, getFieldDefinitions, isComposite } from '../fields/field-definition';
import { seededRandom } from '../../../test/support/seeded-random';
import { compiledValidatorOf } from './compiled-validator';
import { validateRecord, validateRecordWithClassValidator } from './record-body';

/**
 * The compiled validator must answer exactly what class-validator + class-transformer answer:
 * same verdict, same messages in the same order, same value (compared as JSON text, so key order
 * counts). Bodies are generated from every collection's field definitions with a seeded PRNG:
 * valid values, wrong types, nulls, NUL characters, bad dates and URLs, unknown and server-owned
 * properties, unknown composite sub-properties, ids good and bad.
 */

const random = seededRandom(Number(process.env.VALIDATOR_SEED ?? 20261122));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const chance = (p: number) => random() < p;
const uuid = () =>
  '0190b3f4-1c2d-4e5f-8a9b-' +
  Math.floor(random() * 1e12)
    .toString(16)
    .padStart(12, '0');

const JUNK: unknown[] = [
  null,
  '',
  'x',
  'a\u0000b',
  'not a url',
  'https://ok.example/path',
  '2026-02-30',
  '2026-11-21',
  '2026-11-21T25:00:00Z',
  '2026-11-21T10:04:05.123Z',
  '0190b3f4-1c2d-4e5f-8a9b-0123456789ab',
  'NOT_AN_OPTION',
  'RATING_3',
  'API',
  0,
  -1.5,
  1e308,
  true,
  false,
  [],
  ['a'],
  [1, 'a'],
  ['a\u0000'],
  {},
  { a: 1 },
  { primaryEmail: 'x' },
  [{ number: 1 }],
  [{ number: '1', extra: 'x' }],
  { firstName: 1 },
  { nested: { deeper: ['x'] } },
];
const UNKNOWN_KEYS = ['foo', 'createdAt', 'updatedAt', 'deletedAt', 'searchVector', 'Name', '', 'id2', 'Id'];

function validValue(field: FieldDefinition & DeclaredField): unknown {
  if (isComposite(field.type)) return compositeValue(field.compositeClass!);
  switch (field.type) {
    case 'TEXT':
      return field.httpUrl
        ? `https://site-${Math.floor(random() * 100)}.example/`
        : pick(['', 'Ada', 'Lovelace & co', 'émoji ✓']);
    case 'RICH_TEXT':
      return '{"blocks":[]}';
    case 'NUMBER':
    case 'NUMERIC':
    case 'POSITION':
      return pick([0, 1, -3.25, 1e9, Math.floor(random() * 1e6)]);
    case 'BOOLEAN':
      return chance(0.5);
    case 'DATE_TIME':
      return pick(['2026-11-21T10:04:05.123Z', '2026-11-21', '2024-02-29T23:59:59+02:00']);
    case 'DATE':
      return pick(['2026-11-21', '2024-02-29']);
    case 'UUID':
      return uuid();
    case 'RAW_JSON': {
      const shape = field.jsonShape ?? 'any';
      if (shape === 'object') return { k: 'v', n: [1, 2] };
      if (shape === 'stringArray') return ['a', 'b'];
      if (shape === 'any') return pick([{ a: [1, 'x'] }, [1, 2], 'text', 3]);
      return [Object.fromEntries(Object.keys(shape.arrayOf).map((k) => [k, 'v']))];
    }
    case 'ARRAY':
      return ['a', 'b'];
    case 'SELECT':
    case 'RATING':
      return pick(field.options!);
    case 'MULTI_SELECT':
      return field.options!.filter(() => chance(0.5));
  }
  return null;
}

function compositeValue(cls: Type): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const sub of getFieldDefinitions(cls) as DeclaredField[]) {
    if (chance(0.3)) continue;
    value[sub.name] = chance(0.85) ? validValue(sub) : pick(JUNK);
  }
  if (chance(0.08)) value[pick(UNKNOWN_KEYS)] = 'x';
  return value;
}

function body(fields: DeclaredField[], junkRate: number): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  if (chance(0.05)) value[pick(UNKNOWN_KEYS)] = pick(JUNK);
  for (const field of fields) {
    if (chance(0.4)) continue;
    value[field.name] = chance(junkRate) ? pick(JUNK) : validValue(field);
  }
  if (chance(0.05)) value[pick(UNKNOWN_KEYS)] = pick(JUNK);
  if (chance(0.2)) value.id = pick([uuid(), 'abc', 12, null, 'F0190B3F-1C2D-4E5F-8A9B-0123456789AB'.slice(1)]);
  return value;
}

describe('compiled record validator', () => {
  const cases = COLLECTION_DEFINITIONS.flatMap((def) => [
    {
      name: `${def.plural} create`,
      dto: def.create,
      fields: getFieldDefinitions(def.create) as DeclaredField[],
      allowId: true,
    },
    {
      name: `${def.plural} update`,
      dto: def.update,
      fields: getFieldDefinitions(def.create) as DeclaredField[],
      allowId: false,
    },
  ]);

  it('covers every collection body (no DTO falls back to class-validator)', () => {
    expect(cases.length).toBe(2 * COLLECTION_DEFINITIONS.length);
    expect(cases.filter((c) => compiledValidatorOf(c.dto) === null).map((c) => c.name)).toEqual([]);
  });

  it('gives the same verdict, messages and value as class-validator on generated bodies', () => {
    let accepted = 0;
    let rejected = 0;
    for (const c of cases) {
      for (let i = 0; i < 150; i++) {
        const input = body(c.fields, i % 3 === 0 ? 0 : 0.25);
        const reference = validateRecordWithClassValidator(c.dto, input, c.allowId);
        const compiled = validateRecord(c.dto, input, c.allowId);
        if (JSON.stringify(compiled) !== JSON.stringify(reference)) {
          throw new Error(
            `${c.name}: ${JSON.stringify(input)}\ncompiled:  ${JSON.stringify(compiled)}\nreference: ${JSON.stringify(reference)}`,
          );
        }
        if (reference.ok) accepted++;
        else rejected++;
      }
    }
    // both outcomes are exercised in numbers, so agreement is not agreement on one easy answer
    expect(accepted).toBeGreaterThan(1500);
    expect(rejected).toBeGreaterThan(1500);
  });

  it('agrees on bodies that are not records and on nesting limits', () => {
    const dto = COLLECTION_DEFINITIONS[0].create;
    const deep = JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40));
    for (const input of [null, [], 'text', 5, { __proto__: 1 }, deep, JSON.parse('{"__proto__":{"x":1}}')]) {
      expect(validateRecord(dto, input, true, 32)).toEqual(validateRecordWithClassValidator(dto, input, true, 32));
    }
  });

  it('refuses the keys class-transformer drops silently (names of Object.prototype methods)', () => {
    // the one deliberate difference: class-transformer skips a key whose instance value is a
    // function (toString, hasOwnProperty...), so class-validator never sees it and the body
    // passes without it; the compiled validator names it like any other unknown property
    const dto = COLLECTION_DEFINITIONS.find((d) => d.plural === 'companies')!.create;
    const input = { name: 'Acme', toString: 'x', hasOwnProperty: {} };
    expect(validateRecordWithClassValidator(dto, input, true)).toEqual({ ok: true, value: { name: 'Acme' } });
    expect(validateRecord(dto, input, true)).toEqual({
      ok: false,
      messages: ['property toString should not exist', 'property hasOwnProperty should not exist'],
    });
  });

  it('leaves a DTO with a plain class-validator decorator to class-validator', () => {
    class Contact {
      @TextField() name?: string;
      @IsEmail() email?: string;
    }
    expect(compiledValidatorOf(Contact)).toBeNull();
    expect(validateRecord(Contact, { name: 'Ada', email: 'nope' }, false)).toEqual({
      ok: false,
      messages: ['email must be an email'],
    });
    expect(validateRecord(Contact, { name: 'Ada', email: 'ada@example.com' }, false)).toEqual({
      ok: true,
      value: { name: 'Ada', email: 'ada@example.com' },
    });
  });

  it('returns a copy: changing the value leaves the body as sent', () => {
    const def = COLLECTION_DEFINITIONS.find((d) => d.plural === 'people')!;
    const input = {
      name: { firstName: 'Ada', lastName: 'Lovelace' },
      emails: { primaryEmail: 'ada@example.com', additionalEmails: ['a@b.c'] },
    };
    const result = validateRecord(def.create, input, true);
    expect(result).toEqual({ ok: true, value: input });
    if (!result.ok) return;
    (result.value.name as Record<string, unknown>).firstName = 'Changed';
    (result.value.emails as { additionalEmails: string[] }).additionalEmails.push('x@y.z');
    expect(input.name.firstName).toBe('Ada');
    expect(input.emails.additionalEmails).toEqual(['a@b.c']);
  });
});
