import { BadRequestException } from '@nestjs/common';
import { CollectionMeta } from '../model/collection-meta';
import { Row } from '../model/record';
import { StorageColumn } from '../fields/storage-columns';

/** A unique key of a collection: its stored column and the API path of the value. */
export interface UniqueKey {
  column: string;
  path: string;
  valueOf(item: Row): string | undefined;
}

/** The unique keys of a collection (fields declared `unique`), read from the metadata. */
export function uniqueKeys(meta: CollectionMeta): UniqueKey[] {
  return meta.fields
    .filter((f) => f.unique)
    .map((field) => {
      const col: StorageColumn = meta.columnsByField.get(field.name)![0];
      const path = col.sub ? `${field.name}.${col.sub.name}` : field.name;
      const valueOf = (item: Row) => {
        const given = col.sub ? (item[field.name] as Row | null | undefined)?.[col.sub.name] : item[field.name];
        // empty values never match (and are never unique)
        return typeof given === 'string' && given !== '' ? given : undefined;
      };
      return { column: col.column, path, valueOf };
    });
}

/**
 * For each unique key, which of the candidates holds each value: a live record first, else the
 * most recently deleted one (empty values hold nothing).
 */
export function keyHolders(keys: UniqueKey[], candidates: Row[]): Map<string, Row>[] {
  const rank = (row: Row) => (row.deletedAt === null ? Infinity : Date.parse(String(row.deletedAt)));
  return keys.map((key) => {
    const index = new Map<string, Row>();
    for (const row of candidates) {
      const value = row[key.column];
      if (typeof value !== 'string' || value === '') continue;
      const current = index.get(value);
      if (!current || rank(row) > rank(current)) index.set(value, row);
    }
    return index;
  });
}

/** Where each item of an upsert goes: an existing record (its id) or a new one (null). */
export interface UpsertPlan {
  targets: (string | null)[];
}

/**
 * Matches each item to at most one existing record: by `id`, and by each unique key (a live
 * record first, else the most recently deleted one). An item whose keys match two records,
 * or two items that resolve to one record (or share a new key), are 400s naming them.
 */
export function planUpsert(items: Row[], keys: UniqueKey[], candidates: Row[]): UpsertPlan {
  const byId = new Map(candidates.map((row) => [row.id as string, row]));
  const byKey = keyHolders(keys, candidates);
  const messages: string[] = [];
  const claimed = new Map<string, number>();
  const targets = items.map((item, i) => {
    const matches = new Map<string, string[]>();
    const add = (id: string, path: string) => matches.set(id, [...(matches.get(id) ?? []), path]);
    if (typeof item.id === 'string' && byId.has(item.id)) add(item.id, 'id');
    keys.forEach((key, k) => {
      const value = key.valueOf(item);
      const row = value === undefined ? undefined : byKey[k].get(value);
      if (row) add(row.id as string, key.path);
    });
    if (matches.size > 1) {
      const paths = [...matches.values()].map((p) => p.join(' and ')).join(' / ');
      messages.push(`UPSERT_MULTIPLE_MATCHING_RECORDS_CONFLICT: [${i}] ${paths} match different records`);
      return null;
    }
    const target = matches.size === 1 ? [...matches.keys()][0] : null;
    // the identity of the record an item ends up as: its target, or its new keys
    const identities = target
      ? [`id:${target}`]
      : [
          ...(typeof item.id === 'string' ? [`id:${item.id}`] : []),
          ...keys.flatMap((key) => (key.valueOf(item) === undefined ? [] : [`${key.path}:${key.valueOf(item)}`])),
        ];
    for (const identity of identities) {
      const earlier = claimed.get(identity);
      if (earlier !== undefined)
        messages.push(`[${earlier}] and [${i}] resolve to the same record (${identity.replace(/^id:/, 'id ')})`);
      else claimed.set(identity, i);
    }
    return target;
  });
  if (messages.length) throw new BadRequestException([...new Set(messages)]);
  return { targets };
}
