import type { Type } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { FIELD_CONSTRAINT, DeclaredField } from '../fields/define-field';
import { isComposite } from '../fields/field-definition';
import { checkFieldValue, isPlainObject } from '../fields/field-rules';

/**
 * A record-body validator compiled once per DTO class from class-validator's own metadata (the
 * decorators stay the single declaration of the rules). It gives the answers class-validator +
 * class-transformer give through `validateRecordWithClassValidator` (same messages, same order,
 * same values; `compiled-validator.spec.ts` compares both on every collection), without their
 * per-call metadata walks and instance building, which cost ~1/5 of a 60-record batch's CPU.
 *
 * Only the decorators the field model produces are compiled: the field rule (`crmField`, one per
 * property), nested composites (`@ValidateNested` + the composite class) and conditions
 * (`@ValidateIf`, as PartialType adds). A DTO with any other decorator is not compiled
 * (`compiledValidatorOf` returns null) and keeps the class-validator path.
 */

/** One validated property of a class. */
interface CompiledProperty {
  name: string;
  field: DeclaredField;
  conditions: ((object: object, value: unknown) => boolean)[];
  nested?: CompiledClass;
}

interface CompiledClass {
  properties: CompiledProperty[];
  /** Names class-validator's whitelist accepts (every property with metadata). */
  known: Set<string>;
}

/** The message for a property no decorator declares (its dotted path; whether it is top-level). */
export type MessageOf = (path: string, topLevel: boolean) => string;

export interface CompiledRecordValidator {
  /** Appends a message per problem; the caller checked that `body` is a plain object. */
  check(body: Record<string, unknown>, messages: string[], unknownProperty: MessageOf): void;
}

const compiled = new Map<Type, CompiledClass | null>();

function fieldConstraintName(metadata: ValidationMetadata): string | undefined {
  const [constraint] = getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls);
  return constraint?.name;
}

function compileClass(cls: Type, seen: Set<Type>): CompiledClass | null {
  if (compiled.has(cls)) return compiled.get(cls)!;
  if (seen.has(cls)) return null; // a cycle: not a shape the field model produces
  seen.add(cls);
  const storage = getMetadataStorage();
  // exactly what class-validator's executor looks up for an instance of `cls`
  const grouped = storage.groupByPropertyName(storage.getTargetValidationMetadatas(cls, '', false, false, undefined));
  const properties: CompiledProperty[] = [];
  for (const [name, metadatas] of Object.entries(grouped)) {
    const custom = metadatas.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION);
    const nested = metadatas.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION);
    const conditions = metadatas.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
    if (custom.length + nested.length + conditions.length !== metadatas.length) return null;
    if (custom.length !== 1 || fieldConstraintName(custom[0]) !== FIELD_CONSTRAINT) return null;
    if (custom[0].each || custom[0].validateIf || custom[0].always || custom[0].groups?.length) return null;
    const field = custom[0].constraints?.[0] as DeclaredField | undefined;
    if (!field || field.name !== name) return null;
    const property: CompiledProperty = {
      name,
      field,
      conditions: conditions.map((m) => m.constraints[0] as (object: object, value: unknown) => boolean),
    };
    if (nested.length) {
      if (nested.length !== 1 || !isComposite(field.type) || !field.compositeClass) return null;
      const inner = compileClass(field.compositeClass, seen);
      if (!inner) return null;
      property.nested = inner;
    } else if (field.compositeClass) {
      return null;
    }
    properties.push(property);
  }
  const result: CompiledClass = { properties, known: new Set(Object.keys(grouped)) };
  compiled.set(cls, result);
  return result;
}

function checkObject(
  node: CompiledClass,
  object: Record<string, unknown>,
  prefix: string,
  messages: string[],
  unknownProperty: MessageOf,
): void {
  // class-validator's order: unknown properties first (in the body's order), then each property
  for (const key of Object.keys(object)) {
    if (!node.known.has(key)) messages.push(unknownProperty(prefix ? `${prefix}.${key}` : key, prefix === ''));
  }
  for (const property of node.properties) {
    const value = object[property.name];
    if (property.conditions.length && !property.conditions.every((condition) => condition(object, value))) continue;
    const path = prefix ? `${prefix}.${property.name}` : property.name;
    const problem = checkFieldValue(property.field, value);
    if (problem !== null) {
      messages.push(problem.replace(/\{path\}/g, path));
      continue;
    }
    // a composite that passed its rule is an object (or null, which has nothing inside to check)
    if (property.nested && isPlainObject(value)) checkObject(property.nested, value, path, messages, unknownProperty);
  }
}

const validators = new Map<Type, CompiledRecordValidator | null>();

/**
 * The compiled validator of a DTO class (built on first use, then reused), or null when the
 * class uses decorators this does not compile and keeps class-validator.
 */
export function compiledValidatorOf(dto: Type): CompiledRecordValidator | null {
  let validator = validators.get(dto);
  if (validator === undefined) {
    const node = compileClass(dto, new Set());
    validator = node
      ? { check: (body, messages, unknownProperty) => checkObject(node, body, '', messages, unknownProperty) }
      : null;
    validators.set(dto, validator);
  }
  return validator;
}

/** A copy of a JSON value (what class-transformer hands over: new objects and arrays, same values). */
export function copyJson(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyJson);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyJson((value as Record<string, unknown>)[key]);
  return copy;
}
