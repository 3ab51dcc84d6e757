import type { Type } from '@nestjs/common';
import { ApiSchema } from '@nestjs/swagger';
import { defineField } from './define-field';
import { CompositeFieldType, FieldDefinition, getFieldDefinitions } from './field-definition';
import { FieldOptions, NumericField, RawJsonField, SelectField, TextField, UuidField } from './scalar-fields';

/**
 * Composite field types: JSON objects with fixed sub-fields, stored one column per sub-field
 * (`domainName.primaryLinkUrl` -> column `domainNamePrimaryLinkUrl`). Each sub-field class is
 * declared once and referenced by every field of that type (one OpenAPI schema each).
 */

export const ACTOR_SOURCES = [
  'EMAIL',
  'CALENDAR',
  'WORKFLOW',
  'API',
  'IMPORT',
  'MANUAL',
  'SYSTEM',
  'WEBHOOK',
  'AGENT',
  'APPLICATION',
] as const;

@ApiSchema({ name: 'FullName' })
export class FullName {
  @TextField() firstName?: string;
  @TextField() lastName?: string;
}

@ApiSchema({ name: 'Emails' })
export class Emails {
  @TextField() primaryEmail?: string;
  @RawJsonField({ nullable: true, shape: 'stringArray', api: { type: 'array', items: { type: 'string' } } })
  additionalEmails?: string[] | null;
}

@ApiSchema({ name: 'Phones' })
export class Phones {
  @TextField() primaryPhoneNumber?: string;
  @TextField({ description: 'ISO 3166-1 alpha-2 country, e.g. FR' }) primaryPhoneCountryCode?: string;
  @TextField({ description: 'Calling code, e.g. +33' }) primaryPhoneCallingCode?: string;
  @RawJsonField({
    nullable: true,
    shape: { arrayOf: { number: 'string', countryCode: 'string', callingCode: 'string' } },
    api: {
      type: 'array',
      items: {
        type: 'object',
        properties: { number: { type: 'string' }, countryCode: { type: 'string' }, callingCode: { type: 'string' } },
      },
    },
  })
  additionalPhones?: { number?: string; countryCode?: string; callingCode?: string }[] | null;
}

@ApiSchema({ name: 'Links' })
export class Links {
  @TextField() primaryLinkUrl?: string;
  @TextField() primaryLinkLabel?: string;
  @RawJsonField({
    nullable: true,
    default: [],
    shape: { arrayOf: { url: 'string', label: 'string' } },
    api: {
      type: 'array',
      items: { type: 'object', properties: { url: { type: 'string' }, label: { type: 'string' } } },
    },
  })
  secondaryLinks?: { url?: string; label?: string }[] | null;
}

@ApiSchema({ name: 'Currency' })
export class Currency {
  @NumericField({ nullable: true, description: 'Amount x 1,000,000' }) amountMicros?: number | null;
  @TextField({ description: 'ISO 4217 code, e.g. USD' }) currencyCode?: string;
}

@ApiSchema({ name: 'Address' })
export class Address {
  @TextField() addressStreet1?: string;
  @TextField() addressStreet2?: string;
  @TextField() addressCity?: string;
  @TextField() addressPostcode?: string;
  @TextField() addressState?: string;
  @TextField() addressCountry?: string;
  @NumericField({ nullable: true }) addressLat?: number | null;
  @NumericField({ nullable: true }) addressLng?: number | null;
}

@ApiSchema({ name: 'Actor' })
export class Actor {
  @SelectField(ACTOR_SOURCES, { default: 'MANUAL' }) source?: string;
  @UuidField({ nullable: true }) workspaceMemberId?: string | null;
  @TextField() name?: string;
  @RawJsonField({ nullable: true, shape: 'object' }) context?: Record<string, unknown> | null;
}

@ApiSchema({ name: 'RichTextV2' })
export class RichTextV2 {
  @TextField({ nullable: true, description: 'BlockNote JSON document as a string' }) blocknote?: string | null;
  @TextField({ nullable: true }) markdown?: string | null;
}

export const COMPOSITE_CLASSES: Record<CompositeFieldType, Type> = {
  FULL_NAME: FullName,
  EMAILS: Emails,
  PHONES: Phones,
  LINKS: Links,
  CURRENCY: Currency,
  ADDRESS: Address,
  ACTOR: Actor,
  RICH_TEXT_V2: RichTextV2,
};

/** Sub-field definitions of a composite type, in declaration order. */
export function subFieldsOf(type: CompositeFieldType): FieldDefinition[] {
  return getFieldDefinitions(COMPOSITE_CLASSES[type]);
}

/** The default value of a composite: every sub-field at its own default. */
export function compositeDefault(type: CompositeFieldType): Record<string, unknown> {
  return Object.fromEntries(subFieldsOf(type).map((f) => [f.name, f.default ?? null]));
}

function composite(type: CompositeFieldType, opts: FieldOptions<Record<string, unknown>>): PropertyDecorator {
  return (target, key) =>
    defineField({
      name: String(key),
      type,
      nullable: opts.nullable ?? false,
      default: opts.default === undefined ? compositeDefault(type) : opts.default,
      description: opts.description,
      deprecated: opts.deprecated,
      unique: opts.unique,
      indexed: opts.indexed,
      system: opts.system,
      compositeClass: COMPOSITE_CLASSES[type],
    })(target, key);
}

type CompositeOptions = FieldOptions<Record<string, unknown>>;
export const FullNameField = (opts: CompositeOptions = {}) => composite('FULL_NAME', opts);
export const EmailsField = (opts: CompositeOptions = {}) => composite('EMAILS', opts);
export const PhonesField = (opts: CompositeOptions = {}) => composite('PHONES', opts);
export const LinksField = (opts: CompositeOptions = {}) => composite('LINKS', opts);
export const CurrencyField = (opts: CompositeOptions = {}) => composite('CURRENCY', opts);
export const AddressField = (opts: CompositeOptions = {}) => composite('ADDRESS', opts);
/** Who created the record; set by the server from the API key unless the client gives `source`. */
export const ActorField = (opts: CompositeOptions = {}) => composite('ACTOR', opts);
export const RichTextV2Field = (opts: CompositeOptions = {}) => composite('RICH_TEXT_V2', opts);
