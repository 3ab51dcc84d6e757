import { BadRequestException, Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { FIELD_CONSTRAINT } from '../fields/define-field';
import { isPlainObject, isUuid } from '../fields/field-rules';
import { checkJsonSafety } from './json-safety';

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
      messages.push(!prefix && SERVER_OWNED.has(error.property) ? `${path} is read-only` : `property ${path} should not exist`);
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

/**
 * Validates one record body against a DTO class (bound as a value, never a generic type).
 * With `allowId`, an optional client-chosen `id` (a UUID) is accepted beside the fields.
 * Returns the messages of every problem, or the validated values.
 */
export function validateRecord(
  dto: Type<object>,
  body: unknown,
  allowId: boolean,
  maxDepth?: number,
): { ok: true; value: Record<string, unknown> } | { ok: false; messages: string[] } {
  if (!isPlainObject(body)) return { ok: false, messages: ['Body must be a JSON object'] };
  const unsafe = checkJsonSafety(body, maxDepth);
  if (unsafe) return { ok: false, messages: [unsafe] };
  const { id, ...fields } = body;
  const messages: string[] = [];
  if (id !== undefined && (!allowId || !isUuid(id))) {
    messages.push(allowId ? `'${String(id)}' is not a valid UUID (id)` : 'id is read-only');
  }
  const instance = plainToInstance(dto, fields);
  messages.push(...formatValidationErrors(validateSync(instance, VALIDATOR_OPTIONS)));
  if (messages.length) return { ok: false, messages };
  const value = { ...(instance as Record<string, unknown>) };
  if (id !== undefined) value.id = id;
  return { ok: true, value };
}

export function badRequest(messages: string[]): BadRequestException {
  return new BadRequestException(messages);
}

/** Validates a create-many body: a non-empty array of at most `max` records; errors carry `[index]`. */
export function validateRecordArray(dto: Type<object>, body: unknown, max: number, maxDepth?: number): Record<string, unknown>[] {
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
