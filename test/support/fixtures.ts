import { randomUUID } from 'node:crypto';
import { COLLECTION_DEFINITIONS } from '../../src/collections';
import { CollectionMeta } from '../../src/core/model/collection-meta';
import { CollectionCatalog } from '../../src/core/model/collection-catalog';
import { DeclaredField } from '../../src/core/fields/define-field';
import { FieldDefinition, isComposite } from '../../src/core/fields/field-definition';
import { subFieldsOf } from '../../src/core/fields/composite-fields';
import { Http, Json } from './http';

/** The catalog of every collection, as the app builds it (fields, relations). */
export const catalog = new CollectionCatalog(COLLECTION_DEFINITIONS);
export const ALL_COLLECTIONS: CollectionMeta[] = catalog.all();

let counter = 0;
/** A short unique suffix so unique fields never collide between records. */
export function unique(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** A valid value for a scalar field or sub-field. */
export function validValue(field: FieldDefinition & Partial<DeclaredField>, label = field.name): unknown {
  switch (field.type) {
    case 'TEXT':
      // webhook targets must be public: an IP literal (a name would need DNS); fixture webhooks
      // listen to operations no event matches (ARRAY below), so nothing is ever sent there
      return field.httpUrl ? `https://93.184.216.34/${unique()}` : `${label}-${unique()}`;
    case 'RICH_TEXT':
      return JSON.stringify([{ type: 'paragraph', content: label }]);
    case 'NUMBER':
    case 'POSITION':
      return 42.5;
    case 'NUMERIC':
      return 1_500_000;
    case 'BOOLEAN':
      return !(field.default ?? false);
    case 'DATE_TIME':
      return '2026-11-21T10:04:05.123Z';
    case 'DATE':
      return '2026-11-21';
    case 'UUID':
      return randomUUID();
    case 'RAW_JSON':
      if (field.jsonShape === 'stringArray') return [`${label}@example.com`];
      if (field.jsonShape === 'object') return { provider: 'google' };
      if (field.jsonShape && typeof field.jsonShape === 'object') {
        return [Object.fromEntries(Object.keys(field.jsonShape.arrayOf).map((k) => [k, `${k}-${unique()}`]))];
      }
      return { key: label, nested: { list: [1, 2, 3] } };
    case 'ARRAY':
      return ['alpha', 'beta'];
    case 'SELECT':
    case 'RATING':
      return field.options![field.options!.length - 1];
    case 'MULTI_SELECT':
      return [field.options![0]];
    default:
      if (isComposite(field.type)) {
        return Object.fromEntries(
          subFieldsOf(field.type).map((sub) => [sub.name, validValue(sub, `${label}.${sub.name}`)]),
        );
      }
      throw new Error(`no valid value for ${field.type}`);
  }
}

/** Creates records of `plural` through the API; returns their ids. */
export async function createRecord(
  http: Http,
  plural: string,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, Json>> {
  const body = await validPayload(http, catalog.require(plural), overrides);
  const res = await http.post(`/${plural}?depth=0`, body);
  if (res.status !== 201) throw new Error(`creating ${plural}: ${res.status} ${res.text}`);
  return res.body.data[`create${catalog.require(plural).def.pascal}`];
}

/**
 * A valid create body with every writable field set. Required join columns point at records
 * created for the occasion (recursively); optional join columns are left out unless given.
 */
export async function validPayload(
  http: Http,
  meta: CollectionMeta,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const field of meta.fields) {
    if (field.name in overrides || field.readOnly) continue; // readOnly: set by the service only (attachments.size...)
    if (field.relation) {
      if (!field.nullable) body[field.name] = (await createRecord(http, field.relation.target)).id;
      continue;
    }
    const constrained = CONSTRAINED[`${meta.plural}.${field.name}`];
    body[field.name] = constrained ? constrained() : validValue(field);
  }
  return { ...body, ...overrides };
}

/** Fields whose valid values the contract constrains beyond their type: a role's grants (API.md section 14). */
const CONSTRAINED: Record<string, () => unknown> = {
  'roles.permissions': () => [{ collection: 'people', actions: ['read'], hiddenFields: ['phones'] }],
};

/** A value of the wrong JSON type for a field (never acceptable). */
export function wrongTypeValue(field: FieldDefinition): unknown {
  switch (field.type) {
    case 'TEXT':
    case 'RICH_TEXT':
    case 'DATE_TIME':
    case 'DATE':
    case 'UUID':
    case 'SELECT':
    case 'RATING':
      return 12345;
    case 'NUMBER':
    case 'NUMERIC':
    case 'POSITION':
      return 'not-a-number';
    case 'BOOLEAN':
      return 'yes';
    case 'ARRAY':
    case 'MULTI_SELECT':
      return 'not-an-array';
    default:
      return isComposite(field.type) ? 'not-an-object' : undefined;
  }
}

/** The first field of a collection that a wrong JSON type can break (RAW_JSON accepts anything). */
export function typedField(meta: CollectionMeta): DeclaredField | undefined {
  const field = meta.fields.find((f) => wrongTypeValue(f) !== undefined && !f.relation);
  return field ?? meta.fields.find((f) => f.relation);
}

export function selectField(meta: CollectionMeta): DeclaredField | undefined {
  return meta.fields.find((f) => f.type === 'SELECT') ?? meta.fields.find((f) => f.type === 'MULTI_SELECT');
}

/** Row count of a collection's table, soft-deleted rows included. */
export async function rowCount(
  query: (sql: string) => Promise<Record<string, unknown>[]>,
  meta: CollectionMeta,
): Promise<number> {
  const [row] = await query(`SELECT count(*) AS n FROM "${meta.table}"`);
  return Number(row.n);
}
