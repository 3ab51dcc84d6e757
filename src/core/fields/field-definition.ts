import type { Type } from '@nestjs/common';
/**
 * The field model shared by validation, OpenAPI, storage and SQL.
 * A collection declares its fields once, with the decorators of `field.decorators.ts`;
 * everything else (entity columns, schemas, row mapping, filters) is derived from these definitions.
 */

export const SCALAR_FIELD_TYPES = [
  'TEXT',
  'RICH_TEXT',
  'NUMBER',
  'NUMERIC',
  'POSITION',
  'BOOLEAN',
  'DATE_TIME',
  'DATE',
  'UUID',
  'RAW_JSON',
  'ARRAY',
  'SELECT',
  'MULTI_SELECT',
  'RATING',
] as const;
export type ScalarFieldType = (typeof SCALAR_FIELD_TYPES)[number];

export const COMPOSITE_FIELD_TYPES = [
  'FULL_NAME',
  'EMAILS',
  'PHONES',
  'LINKS',
  'CURRENCY',
  'ADDRESS',
  'ACTOR',
  'RICH_TEXT_V2',
] as const;
export type CompositeFieldType = (typeof COMPOSITE_FIELD_TYPES)[number];

export type FieldType = ScalarFieldType | CompositeFieldType;

/** Marker default: the database clock at insert time. */
export const DEFAULT_NOW = 'now()' as const;

/** What a hard delete of the target does to the records pointing at it: clear, delete them, or refuse (RESTRICT). */
export type OnDeleteAction = 'SET_NULL' | 'CASCADE' | 'RESTRICT';

/** The MANY_TO_ONE relation a join column (`<name>Id`) stands for. */
export interface JoinRelation {
  /** Relation field name on this record, e.g. `company`. */
  name: string;
  /** Plural name of the target collection, e.g. `companies`. */
  target: string;
  /** Name of the ONE_TO_MANY array on the target, e.g. `people`. */
  inverse: string;
  /** What happens to this record when the target is hard-deleted. */
  onDelete: OnDeleteAction;
}

export interface FieldDefinition {
  name: string;
  type: FieldType;
  nullable: boolean;
  /** `undefined` means no default: a non-nullable field without default is required on create. */
  default?: unknown;
  /** Allowed values of SELECT / MULTI_SELECT / RATING. */
  options?: readonly string[];
  unique?: boolean;
  /**
   * Indexed for filtering (API.md section 18): a partial index `(column, id) WHERE "deletedAt" IS
   * NULL`, which answers a filter on the field and the count of its matches from the index alone.
   * `true` on a scalar field; the sub-fields to index on a composite (`['amountMicros']`).
   */
  indexed?: boolean | readonly string[];
  /** System field (position, avatarUrl...): writable, but managed by clients of the UI. */
  system?: boolean;
  deprecated?: boolean;
  description?: string;
  /** Accepted on write, never returned (webhooks.secret). */
  writeOnly?: boolean;
  /**
   * Set by the service only, returned like any field (attachments.size, mimeType, checksum, set
   * by a file upload): a write body that names it is a 400 `<name> is read-only`, as for `createdAt`.
   */
  readOnly?: boolean;
  /** Stored encrypted with AES-256-GCM, returned in clear (connectedAccounts tokens). */
  encrypted?: boolean;
  /**
   * TEXT that must be an absolute http(s) URL (webhooks.targetUrl; whether its host must also be
   * public is the collection's own check, configured by WEBHOOK_ALLOW_PRIVATE_TARGETS).
   */
  httpUrl?: boolean;
  /** Set when this UUID field is the join column of a MANY_TO_ONE relation. */
  relation?: JoinRelation;
}

/** A field is required on create when it cannot be null and has no default. */
export function isRequired(field: Pick<FieldDefinition, 'nullable' | 'default'>): boolean {
  return !field.nullable && field.default === undefined;
}

export function isComposite(type: FieldType): type is CompositeFieldType {
  return (COMPOSITE_FIELD_TYPES as readonly string[]).includes(type);
}

const FIELDS_KEY = Symbol('crm:fields');

/** Records a field on a class (own list; parents' fields are merged by `getFieldDefinitions`). */
export function registerField(target: object, field: FieldDefinition): void {
  const ctor = target.constructor;
  const own: FieldDefinition[] = Reflect.getOwnMetadata(FIELDS_KEY, ctor) ?? [];
  Reflect.defineMetadata(FIELDS_KEY, [...own.filter((f) => f.name !== field.name), field], ctor);
}

/** Fields declared on a class and its parents, in declaration order (parents first). */
export function getFieldDefinitions(cls: Type): FieldDefinition[] {
  const chain: Type[] = [];
  for (let c: Type | null = cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    chain.unshift(c);
  }
  const byName = new Map<string, FieldDefinition>();
  for (const c of chain) {
    for (const field of (Reflect.getOwnMetadata(FIELDS_KEY, c) ?? []) as FieldDefinition[]) {
      byName.set(field.name, field);
    }
  }
  return [...byName.values()];
}
