import { ForbiddenException } from '@nestjs/common';
import type { Access, Action, Grant } from '../model/access';
import type { ApiRecord } from '../model/record';

/**
 * The checks every route makes against the key's access (API.md section 14), in one place: an
 * action on a collection, a field written, a record shaped for the key (what a key may read is
 * checked where the query language parses it: src/core/model/readable-fields.ts).
 */

/** 403 `API key '<name>' may not <action> <plural>` unless the key's role grants the action. */
export function requireAction(access: Access, plural: string, action: Action): Grant {
  const grant = access.grant(plural);
  if (!grant || !grant.actions.has(action)) {
    throw new ForbiddenException(`API key '${access.keyName}' may not ${action} ${plural}`);
  }
  return grant;
}

/** The record without the fields the grant hides (a copy; the record itself when nothing is hidden). */
export function withoutHidden(grant: Grant, record: ApiRecord): ApiRecord {
  if (grant.hidden.size === 0) return record;
  const copy: ApiRecord = {};
  for (const [name, value] of Object.entries(record)) if (!grant.hidden.has(name)) copy[name] = value;
  return copy;
}
