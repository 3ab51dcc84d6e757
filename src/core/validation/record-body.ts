import { BadRequestException, Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { FIELD_CONSTRAINT } from '../fields/define-field';
import { isPlainObject, isUuid } from '../fields/field-rules';
import { checkJsonSafety } from './json-safety';
import { compiledValidatorOf, copyJson } from './compiled-validator';

/** Fields the server owns: sending them is an error with a clear message. */
const SERVER_OWNED = new Set(['createdAt', 'updatedAt', 'deletedAt', 'searchVector']);

/**
 * Flattens class-validator errors into one message per problem, naming the dotted path:
 * `name.firstName must be a string`, `Invalid value 'X' for field "stage"`.
 */
export function formatValidationErrors(errors: ValidationError[], prefix = ''): string[] {
  const messages: string[] = [];
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    if (constraints.whitelistValidation) {
      messages.push(unknownPropertyMessage(path, !prefix));
      continue;
    }
    if (constraints[FIELD_CONSTRAINT]) {
      // the field's own rule failed: its message is the whole story (no nested noise)
      messages.push(constraints[FIELD_CONSTRAINT].replace(/\{path\}/g, path));
      continue;
    }
    for (const [name, message] of Object.entries(constraints)) {
      if (name !== 'nestedValidation') messages.push(message.replace(/\{path\}/g, path));
    }
    if (error.children?.length) messages.push(...formatValidationErrors(error.children, path));
  }
  return messages;
}

const VALIDATOR_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: false, // only our DTO instances are validated; unknown properties are still refused
  validationError: { target: false, value: false },
} as const;

export type RecordValidation = { ok: true; value: Record<string, unknown> } | { ok: false; messages: string[] };

/** The message for a property no field declares. */
function unknownPropertyMessage(path: string, topLevel: boolean): string {
  return topLevel && SERVER_OWNED.has(path) ? `${path} is read-only` : `property ${path} should not exist`;
}

/** Shape and id checks every record body goes through first; returns the fields without `id`. */
function precheck(
  body: unknown,
  allowId: boolean,
  maxDepth: number | undefined,
  messages: string[],
): { fields: Record<string, unknown>; id: unknown } | undefined {
  if (!isPlainObject(body)) {
    messages.push('Body must be a JSON object');
    return undefined;
  }
  const unsafe = checkJsonSafety(body, maxDepth);
  if (unsafe) {
    messages.push(unsafe);
    return undefined;
  }
  const { id, ...fields } = body;
  if (id !== undefined && (!allowId || !isUuid(id))) {
    messages.push(allowId ? `'${String(id)}' is not a valid UUID (id)` : 'id is read-only');
  }
  // UUIDs are case-insensitive: the canonical (stored and answered) form is lower case
  return { fields, id: typeof id === 'string' ? id.toLowerCase() : id };
}

/**
 * The reference validation: class-transformer builds the DTO instance and class-validator runs
 * its decorators. Used for DTOs the compiled validator does not cover, and by the test that
 * proves both give the same answers.
 */
export function validateRecordWithClassValidator(
  dto: Type<object>,
  body: unknown,
  allowId: boolean,
  maxDepth?: number,
): RecordValidation {
  const messages: string[] = [];
  const checked = precheck(body, allowId, maxDepth, messages);
  if (!checked) return { ok: false, messages };
  const instance = plainToInstance(dto, checked.fields);
  messages.push(...formatValidationErrors(validateSync(instance, VALIDATOR_OPTIONS)));
  if (messages.length) return { ok: false, messages };
  const value = { ...(instance as Record<string, unknown>) };
  if (checked.id !== undefined) value.id = checked.id;
  return { ok: true, value };
}

/**
 * Validates one record body against a DTO class (bound as a value, never a generic type).
 * With `allowId`, an optional client-chosen `id` (a UUID) is accepted beside the fields.
 * Returns the messages of every problem, or the validated values (a copy of the body).
 */
export function validateRecord(
  dto: Type<object>,
  body: unknown,
  allowId: boolean,
  maxDepth?: number,
): RecordValidation {
  const validator = compiledValidatorOf(dto);
  if (!validator) return validateRecordWithClassValidator(dto, body, allowId, maxDepth);
  const messages: string[] = [];
  const checked = precheck(body, allowId, maxDepth, messages);
  if (!checked) return { ok: false, messages };
  validator.check(checked.fields, messages, unknownPropertyMessage);
  if (messages.length) return { ok: false, messages };
  // bodies passed checkJsonSafety: no __proto__ key reaches the copy
  const value = copyJson(checked.fields) as Record<string, unknown>;
  if (checked.id !== undefined) value.id = checked.id;
  return { ok: true, value };
}

export function badRequest(messages: string[]): BadRequestException {
  return new BadRequestException(messages);
}

/** Validates a create-many body: a non-empty array of at most `max` records; errors carry `[index]`. */
export function validateRecordArray(
  dto: Type<object>,
  body: unknown,
  max: number,
  maxDepth?: number,
): Record<string, unknown>[] {
  if (!Array.isArray(body)) throw badRequest(['Body must be a JSON array of records']);
  if (body.length === 0) throw badRequest(['Body must contain at least one record']);
  if (body.length > max) throw badRequest([`Maximum number of records to upsert is ${max}.`]);
  const values: Record<string, unknown>[] = [];
  const messages: string[] = [];
  body.forEach((item, index) => {
    const result = validateRecord(dto, item, true, maxDepth === undefined ? undefined : maxDepth - 1);
    if (result.ok) values.push(result.value);
    else messages.push(...result.messages.map((m) => `[${index}] ${m}`));
  });
  if (messages.length) throw badRequest(messages);
  return values;
}
