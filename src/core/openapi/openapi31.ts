import type { OpenAPIObject } from '@nestjs/swagger';
import { ANY_JSON } from '../fields/define-field';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON Schema node, walked generically
type Schema = Record<string, any>;

/**
 * Rewrites one schema from the OpenAPI 3.0 dialect @nestjs/swagger emits into JSON Schema
 * 2020-12 as OpenAPI 3.1 uses it: `nullable` becomes a `null` type (or a `oneOf` with null
 * for references), and properties marked as any JSON lose their placeholder type.
 */
export function convertSchema(schema: Schema): Schema {
  if (Array.isArray(schema)) return schema.map(convertSchema) as unknown as Schema;
  if (!schema || typeof schema !== 'object') return schema;
  let out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(Object.entries(value as Schema).map(([k, v]) => [k, convertSchema(v)]));
    } else if (value && typeof value === 'object') {
      out[key] = convertSchema(value);
    } else {
      out[key] = value;
    }
  }
  if (out[ANY_JSON]) {
    const { [ANY_JSON]: _marker, type: _type, additionalProperties: _additional, ...rest } = out;
    out = rest;
  }
  if (out.nullable === true) {
    const { nullable: _nullable, ...rest } = out;
    out = rest;
    const ref = out.$ref ? { $ref: out.$ref } : out.allOf?.length === 1 && out.allOf[0].$ref ? out.allOf[0] : undefined;
    if (ref) {
      const { $ref: _r, allOf: _a, type: _t, ...meta } = out;
      out = { ...meta, oneOf: [ref, { type: 'null' }] };
    } else if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    } else if (out.type === undefined && !out.oneOf && !out.anyOf) {
      // any JSON value, null included: nothing to add
    }
  } else if (out.allOf?.length === 1 && out.allOf[0].$ref && out.type === 'object') {
    const { allOf, type: _t, ...meta } = out;
    out = { ...meta, ...allOf[0] };
  }
  return out;
}

/** Names of the schemas whose objects hold exactly the declared properties. */
function isClosedRecordSchema(name: string, schema: Schema): boolean {
  return schema.type === 'object' && !!schema.properties && name !== 'ErrorEnvelope';
}

/**
 * Turns the generated document into OpenAPI 3.1: converted schemas, closed record schemas
 * (`additionalProperties: false`, so a response with an undocumented field fails validation),
 * and the extra sections given (webhooks).
 */
export function toOpenApi31(doc: OpenAPIObject, extra: Record<string, unknown> = {}): Schema {
  const converted = convertSchema(doc as unknown as Schema);
  for (const [name, schema] of Object.entries((converted.components?.schemas ?? {}) as Record<string, Schema>)) {
    if (isClosedRecordSchema(name, schema)) schema.additionalProperties = false;
  }
  return { ...converted, openapi: '3.1.0', ...extra };
}
