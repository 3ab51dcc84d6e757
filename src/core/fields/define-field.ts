import { applyDecorators, Type as ClassType } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ValidateBy, ValidateNested } from 'class-validator';
import { DEFAULT_NOW, FieldDefinition, isComposite, isRequired, registerField } from './field-definition';
import { checkFieldValue, FieldRuleOptions } from './field-rules';

/** Marker the field decorators put on RAW_JSON properties: any JSON value is accepted (OpenAPI 3.1 drops the type). */
export const ANY_JSON = 'x-any-json';

/** Name of the class-validator constraint every field decorator applies. */
export const FIELD_CONSTRAINT = 'crmField';

/** A field definition plus what validation and OpenAPI need beyond it. */
export type DeclaredField = FieldDefinition &
  FieldRuleOptions & {
    /** Class of the composite's sub-fields (validated as a nested object). */
    compositeClass?: ClassType;
    /** OpenAPI schema overrides (examples, item schemas). */
    api?: ApiPropertyOptions;
  };

/** OpenAPI description of one field, derived from its definition. */
export function apiPropertyFor(field: DeclaredField): ApiPropertyOptions {
  const base: Record<string, unknown> = {
    required: isRequired(field),
    nullable: field.nullable || undefined,
    description: field.description,
    deprecated: field.deprecated || undefined,
    writeOnly: field.writeOnly || undefined,
    readOnly: field.readOnly || undefined,
  };
  if (
    field.default !== undefined &&
    field.default !== null &&
    field.default !== DEFAULT_NOW &&
    !isComposite(field.type)
  ) {
    base.default = field.default;
  }
  const byType: Record<string, Record<string, unknown>> = {
    TEXT: { type: 'string', format: field.httpUrl ? 'uri' : undefined },
    RICH_TEXT: { type: 'string', description: field.description ?? 'BlockNote JSON document as a string' },
    NUMBER: { type: 'number' },
    NUMERIC: { type: 'number' },
    POSITION: { type: 'number' },
    BOOLEAN: { type: 'boolean' },
    DATE_TIME: { type: 'string', format: 'date-time' },
    DATE: { type: 'string', format: 'date' },
    UUID: { type: 'string', format: 'uuid' },
    RAW_JSON:
      field.jsonShape === 'object'
        ? { type: 'object', additionalProperties: true }
        : field.api && 'type' in field.api
          ? {}
          : { type: 'object', [ANY_JSON]: true, description: field.description ?? 'Any JSON value' },
    ARRAY: { type: 'array', items: { type: 'string' } },
    SELECT: { type: 'string', enum: field.options },
    RATING: { type: 'string', enum: field.options },
    MULTI_SELECT: { type: 'array', items: { type: 'string', enum: field.options } },
  };
  const typed = isComposite(field.type) ? { type: () => field.compositeClass } : byType[field.type];
  return { ...base, ...typed, ...(field.api ?? {}) } as ApiPropertyOptions;
}

/**
 * The one decorator behind every field decorator: records the definition, applies its
 * class-validator constraint (null, required, type, options, in one rule with one message)
 * and its OpenAPI property.
 */
export function defineField(field: DeclaredField): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    (target) => registerField(target, field),
    ValidateBy({
      name: FIELD_CONSTRAINT,
      // the definition rides in the metadata, where the compiled validator reads it
      constraints: [field],
      validator: {
        validate: (value) => checkFieldValue(field, value) === null,
        defaultMessage: (args) => checkFieldValue(field, args?.value) ?? '{path} is invalid',
      },
    }),
    ApiProperty(apiPropertyFor(field)),
  ];
  if (field.compositeClass) {
    const cls = field.compositeClass;
    decorators.push(
      ValidateNested(),
      Type(() => cls as new () => object),
    );
  }
  return applyDecorators(...decorators);
}
