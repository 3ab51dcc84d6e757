import type { Grant } from '../model/access';
import type { ApiRecord } from '../model/record';

const COPIES = ['before', 'after'] as const;

/**
 * The `properties` of an audit or timeline row (`{before?, after?, diff?}`, record copies of one
 * collection) without the fields the grant hides: removed from the copies and from the diff, so a
 * change that touched only hidden fields stays visible with an empty `diff` (API.md section 14).
 */
export function withoutHiddenProperties(properties: unknown, grant: Grant): unknown {
  if (grant.hidden.size === 0 || !properties || typeof properties !== 'object' || Array.isArray(properties))
    return properties;
  const out: ApiRecord = { ...(properties as ApiRecord) };
  for (const key of [...COPIES, 'diff'] as const) {
    const value = out[key];
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    out[key] = Object.fromEntries(Object.entries(value as ApiRecord).filter(([name]) => !grant.hidden.has(name)));
  }
  return out;
}
