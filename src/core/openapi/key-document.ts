import { getSchemaPath, OpenAPIObject } from '@nestjs/swagger';
import { canSearch } from '../model/readable-fields';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { DocumentLimits } from './route-parameters';
import { collectionPaths } from './route-operations';
import { toOpenApi31 } from './openapi31';
import { WEBHOOK_DOCS } from './webhooks.docs';

type Schema = Record<string, unknown>;

const nameOf = (type: Parameters<typeof getSchemaPath>[0]) => getSchemaPath(type).split('/').pop()!;

/**
 * A collection's three schemas as the key sees them: without the fields it may not read, the
 * create and update ones also without the fields it may not write, the relations to collections it
 * cannot read left out of the response one.
 */
function restrictSchemas(schemas: Record<string, Schema>, meta: CollectionMeta, access: Access): void {
  const grant = access.grant(meta.plural)!;
  const drop = (name: string, leaveOut: (field: string) => boolean) => {
    const schema = schemas[name];
    if (!schema?.properties) return;
    const properties = Object.fromEntries(Object.entries(schema.properties as Schema).filter(([f]) => !leaveOut(f)));
    const required = (schema.required as string[] | undefined)?.filter((f) => !leaveOut(f));
    schemas[name] = { ...schema, properties, ...(required ? { required } : {}) };
  };
  const unwritable = (f: string) => grant.hidden.has(f) || grant.readOnly.has(f);
  drop(nameOf(meta.def.create), unwritable);
  drop(nameOf(meta.def.update), unwritable);
  drop(nameOf(meta.def.response), (f) => grant.omitted.has(f));
}

/**
 * The OpenAPI document of one key (API.md section 14): only the collections and operations it may
 * use (the route table's actions against its grants), without its hidden fields, the read-only ones
 * absent from the create and update schemas; search only if it may search a collection.
 */
export function keyDocument(
  generated: OpenAPIObject,
  collections: readonly CollectionMeta[],
  limits: DocumentLimits,
  access: Access,
): Schema {
  const open = collections.filter((meta) => access.grant(meta.plural));
  const schemas = structuredClone(generated.components?.schemas ?? {}) as Record<string, Schema>;
  for (const meta of collections) {
    if (open.includes(meta)) restrictSchemas(schemas, meta, access);
    else for (const type of [meta.def.create, meta.def.update, meta.def.response]) delete schemas[nameOf(type)];
  }
  const others = Object.fromEntries(
    Object.entries(generated.paths).filter(
      ([path]) => path !== '/search' || collections.some((m) => m.searchable && canSearch(access, m)),
    ),
  );
  const paths = {
    ...collectionPaths(
      open.map((m) => m.def),
      limits,
      access,
    ),
    ...others,
  };
  // the tags of the operations left (a collection's, search, the change feed, the import jobs)
  const used = new Set(
    Object.values(paths as Record<string, Record<string, { tags?: string[] }>>).flatMap((item) =>
      Object.values(item).flatMap((op) => op.tags ?? []),
    ),
  );
  const tags = (generated.tags ?? []).filter((tag) => used.has(tag.name));
  const document = { ...generated, paths, tags, components: { ...generated.components, schemas } } as OpenAPIObject;
  return toOpenApi31(document, { webhooks: WEBHOOK_DOCS });
}
