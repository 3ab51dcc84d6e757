import { defineField, DeclaredField } from './define-field';
import { DEFAULT_NOW, JoinRelation } from './field-definition';
import { JsonShape } from './field-rules';

/**
 * Field decorators for scalar types. Every field is non-nullable unless `nullable: true`.
 * Without `default`, a non-nullable field is required on create (TEXT defaults to '').
 */
export interface FieldOptions<T = unknown> {
  nullable?: boolean;
  /** Required on create even where the type has a default (TEXT otherwise defaults to ''). */
  required?: boolean;
  default?: T | null;
  description?: string;
  deprecated?: boolean;
  system?: boolean;
  unique?: boolean;
  /** Indexed for filtering (FieldDefinition.indexed): `true`, or the sub-fields of a composite. */
  indexed?: boolean | readonly string[];
  example?: unknown;
  /** Set by the service only: returned, never accepted in a write body (FieldDefinition.readOnly). */
  readOnly?: boolean;
}

type Extra = Partial<Pick<DeclaredField, 'writeOnly' | 'encrypted' | 'httpUrl' | 'jsonShape' | 'api'>>;

function scalar(type: DeclaredField['type'], name: string, opts: FieldOptions & Extra, fallbackDefault?: unknown) {
  const { example, required, ...rest } = opts;
  const field: DeclaredField = {
    ...rest,
    name,
    type,
    nullable: opts.nullable ?? false,
    default: required ? undefined : opts.default === undefined ? fallbackDefault : opts.default,
    api: { ...(example !== undefined ? { example } : {}), ...(opts.api ?? {}) },
  };
  if (field.nullable && field.default === undefined) field.default = null;
  return field;
}

/** Builds a property decorator from a definition that needs the property name. */
function byName(make: (name: string) => DeclaredField): PropertyDecorator {
  return (target, key) => defineField(make(String(key)))(target, key);
}

export const TextField = (opts: FieldOptions<string> & Pick<Extra, 'writeOnly' | 'encrypted' | 'httpUrl'> = {}) =>
  byName((name) => scalar('TEXT', name, opts, ''));

/** Legacy rich text: a BlockNote JSON document stored as a string. */
export const RichTextField = (opts: FieldOptions<string> = {}) => byName((name) => scalar('RICH_TEXT', name, opts));

/** Double precision number. */
export const NumberField = (opts: FieldOptions<number> = {}) => byName((name) => scalar('NUMBER', name, opts));

/** Arbitrary precision number (PostgreSQL numeric), exchanged as a JSON number. */
export const NumericField = (opts: FieldOptions<number> = {}) => byName((name) => scalar('NUMERIC', name, opts));

/** Manual ordering position (float), system field, default 0. */
export const PositionField = (opts: FieldOptions<number> = {}) =>
  byName((name) => scalar('POSITION', name, { system: true, ...opts }, 0));

export const BooleanField = (opts: FieldOptions<boolean> = {}) => byName((name) => scalar('BOOLEAN', name, opts));

/** ISO 8601 date-time; `default: 'now'` uses the database clock. */
export const DateTimeField = (opts: Omit<FieldOptions<string>, 'default'> & { default?: 'now' | null } = {}) =>
  byName((name) =>
    scalar('DATE_TIME', name, { ...opts, default: opts.default === 'now' ? DEFAULT_NOW : opts.default }),
  );

export const DateField = (opts: FieldOptions<string> = {}) => byName((name) => scalar('DATE', name, opts));

/** A plain UUID value (not a relation). */
export const UuidField = (opts: FieldOptions<string> = {}) => byName((name) => scalar('UUID', name, opts));

/** Free JSON stored as jsonb; `shape` narrows what is accepted. */
export const RawJsonField = (opts: FieldOptions & { shape?: JsonShape; api?: DeclaredField['api'] } = {}) =>
  byName((name) => scalar('RAW_JSON', name, { ...opts, jsonShape: opts.shape }));

/** Array of strings (text[]). */
export const ArrayField = (opts: FieldOptions<string[]> = {}) => byName((name) => scalar('ARRAY', name, opts));

/** One value out of `options` (a PostgreSQL enum). */
export const SelectField = (options: readonly string[], opts: FieldOptions<string> = {}) =>
  byName((name) => ({ ...scalar('SELECT', name, opts), options }));

/** Any number of values out of `options` (a PostgreSQL enum array). */
export const MultiSelectField = (options: readonly string[], opts: FieldOptions<string[]> = {}) =>
  byName((name) => ({ ...scalar('MULTI_SELECT', name, opts), options }));

export const RATING_OPTIONS = ['RATING_1', 'RATING_2', 'RATING_3', 'RATING_4', 'RATING_5'] as const;

export const RatingField = (opts: FieldOptions<string> = {}) =>
  byName((name) => ({ ...scalar('RATING', name, opts), options: RATING_OPTIONS }));

/**
 * The writable join column `<relation>Id` of a MANY_TO_ONE relation. The relation field itself
 * (`relation.name`) is read-only and the inverse ONE_TO_MANY array appears on the target.
 */
export const JoinColumnField = (relation: JoinRelation & Pick<FieldOptions, 'nullable' | 'description' | 'system'>) =>
  byName((name) => {
    const { nullable, description, system, ...rel } = relation;
    return {
      ...scalar('UUID', name, { nullable, system, description: description ?? `Id of the related ${rel.name}` }),
      relation: rel,
    };
  });
