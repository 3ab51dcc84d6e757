import { Access, adminAccess, Grant } from '../model/access';
import type { ResolvedFilter } from '../model/checked-filter';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { parseFilter } from '../query/parse-filter';
import { resolveFilter } from '../query/resolve-filter';
import { GrantInput, grantableCollections, grantableFields, resolveRowFilter } from './grants';

/** A key's role as the key lookup reads it; null when the key has none. */
export interface RoleOfKey {
  admin: boolean;
  permissions: unknown;
  /** A soft-deleted role grants nothing (the key stays valid, with no power). */
  deleted: boolean;
}

const both = (a: ResolvedFilter | undefined, b: ResolvedFilter | undefined): ResolvedFilter | undefined =>
  a && b ? { kind: 'and', children: [a, b] } : (a ?? b);

/** One collection's grant from the role's grant for it (or its `*` grant), compiled. */
function compileGrant(meta: CollectionMeta, input: GrantInput): Grant {
  const known = grantableFields(meta);
  const hidden = new Set((input.hiddenFields ?? []).filter((f) => known.has(f)));
  // a hidden join column hides its relation too: the related record would show its id
  for (const rel of meta.manyToOne) if (hidden.has(rel.joinColumn)) hidden.add(rel.name);
  return {
    actions: new Set(input.actions),
    hidden,
    readOnly: new Set((input.readOnlyFields ?? []).filter((f) => known.has(f))),
    omitted: hidden,
    rows: input.filter === undefined ? undefined : resolveRowFilter(meta, input.filter),
  };
}

/**
 * The grants of a role's permissions (already validated when the role was written), by plural:
 * a collection's own grant, else the `*` grant; admin-only collections never. Collections whose
 * rows are about others (audit log, timeline) also show only the rows about readable collections.
 */
export function compileGrants(catalog: CollectionCatalog, permissions: GrantInput[]): CompiledGrants {
  const own = new Map(permissions.map((g) => [g.collection, g]));
  const grants = new Map<string, Grant>();
  for (const meta of grantableCollections(catalog)) {
    const input = own.get(meta.plural) ?? own.get('*');
    if (input) grants.set(meta.plural, compileGrant(meta, input));
  }
  const readable = [...grants]
    .filter(([, g]) => g.actions.has('read'))
    .map(([plural]) => ({ plural, singular: catalog.require(plural).def.singular }));
  const canRead = (plural: string) => grants.get(plural)?.actions.has('read') === true;
  for (const [plural, grant] of grants) {
    const meta = catalog.require(plural);
    const visible = meta.def.hooks?.visibleRows?.(readable);
    const rows = visible === undefined ? grant.rows : both(grant.rows, resolveFilter(meta, parseFilter(visible)));
    const closed = [...meta.manyToOne, ...meta.oneToMany].filter((r) => !canRead(r.target)).map((r) => r.name);
    grants.set(plural, { ...grant, rows, omitted: new Set([...grant.hidden, ...closed]) });
  }
  const bySingular = new Map([...grants].map(([plural, grant]) => [catalog.require(plural).def.singular, grant]));
  return { byPlural: grants, bySingular };
}

/** A role's grants by plural and by singular. */
export interface CompiledGrants {
  byPlural: ReadonlyMap<string, Grant>;
  bySingular: ReadonlyMap<string, Grant>;
}

const NONE: CompiledGrants = { byPlural: new Map(), bySingular: new Map() };

/** The access of a key with the grants of its role. */
export function roleAccess(keyName: string, grants: CompiledGrants): Access {
  return {
    admin: false,
    keyName,
    grant: (plural) => grants.byPlural.get(plural),
    grantOfObject: (singular) => grants.bySingular.get(singular),
  };
}

/** The access of a key: everything without a role or with an admin role; nothing with a soft-deleted role. */
export function accessOf(
  keyName: string,
  role: RoleOfKey | null,
  grantsOf: (permissions: unknown) => CompiledGrants,
): Access {
  if (!role || (role.admin && !role.deleted)) return adminAccess(keyName);
  if (role.deleted) return roleAccess(keyName, NONE);
  return roleAccess(keyName, grantsOf(role.permissions));
}
