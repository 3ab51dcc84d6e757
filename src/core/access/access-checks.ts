import { ForbiddenException } from '@nestjs/common';
import type { Access, Action, Grant } from '../model/access';
import type { ApiRecord } from '../model/record';

/**
 * The checks every route makes against the key's access (API.md section 14), in one place: an
 * action on a collection, a field read or written, a record shaped for the key.
 */

/** 403 `API key '<name>' may not <action> <plural>` unless the key's role grants the action. */
export function requireAction(access: Access, plural: string, action: Action): Grant {
  const grant = access.grant(plural);
  if (!grant || !grant.actions.has(action)) {
    throw new ForbiddenException(`API key '${access.keyName}' may not ${action} ${plural}`);
  }
  return grant;
}

/** Whether the key can read the collection at all. */
export function canRead(access: Access, plural: string): boolean {
  return access.grant(plural)?.actions.has('read') === true;
}

/** The record without the fields the grant hides (a copy; the record itself when nothing is hidden). */
export function withoutHidden(grant: Grant, record: ApiRecord): ApiRecord {
  if (grant.hidden.size === 0) return record;
  const copy: ApiRecord = {};
  for (const [name, value] of Object.entries(record)) if (!grant.hidden.has(name)) copy[name] = value;
  return copy;
}

/** Whether the key may search a collection: it can read it, and every field its search vector is made of. */
export function canSearch(access: Access, meta: { plural: string; searchFields: readonly string[] }): boolean {
  if (access.admin) return true;
  const grant = access.grant(meta.plural);
  return grant?.actions.has('read') === true && !meta.searchFields.some((f) => grant.hidden.has(f));
}
