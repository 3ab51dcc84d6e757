import type { ResolvedFilter } from './checked-filter';

/** What a route does to records, as a role grants it (API.md section 14). */
export type Action = 'read' | 'create' | 'update' | 'delete';

export const ACTIONS: readonly Action[] = ['read', 'create', 'update', 'delete'];

/** What one API key may do on one collection: its role's grant for it, checked and compiled. */
export interface Grant {
  readonly actions: ReadonlySet<Action>;
  /** Top-level fields (composites whole, join columns included) the key can neither read nor write. */
  readonly hidden: ReadonlySet<string>;
  /** Fields the key can read but not write. */
  readonly readOnly: ReadonlySet<string>;
  /**
   * What records of the collection lose before the key sees them: its hidden fields, and the
   * relations to collections the key cannot read (worked out once, when the role is compiled).
   */
  readonly omitted: ReadonlySet<string>;
  /** The rows the key sees and changes (its grant's filter, checked); undefined: every row. */
  readonly rows?: ResolvedFilter;
}

/**
 * What the API key of a request may do (API.md section 14): everything (an admin role, or no role
 * at all), or exactly the grants of its role. Built once per key and role by src/core/access and
 * carried by the request's actor; every check reads it.
 */
export interface Access {
  readonly admin: boolean;
  /** The key's name, as messages name it (`API key 'reporting' may not delete people`). */
  readonly keyName: string;
  /** The grant on a collection (by plural), undefined when the collection is closed to the key. */
  grant(plural: string): Grant | undefined;
  /** The same by the collection's singular (the `objectName` of events and audit rows). */
  grantOfObject(singular: string): Grant | undefined;
}

const EVERYTHING: Grant = { actions: new Set(ACTIONS), hidden: new Set(), readOnly: new Set(), omitted: new Set() };

/** The access of an admin key (or a key with no role): every action on every collection, every field, every row. */
export function adminAccess(keyName: string): Access {
  return { admin: true, keyName, grant: () => EVERYTHING, grantOfObject: () => EVERYTHING };
}
