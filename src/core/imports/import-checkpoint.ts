import type { CollectionMeta } from '../model/collection-meta';
import type { RequestActor, Row } from '../model/record';
import { keyHolders, UniqueKey } from '../records/upsert-plan';
import type { ImportOperation, ImportRow, RelationColumn, RowError } from './import-types';

/** What a job writes with: its collection, key (with the import's context), operation and relation columns. */
export interface CheckpointContext {
  importId: string;
  meta: CollectionMeta;
  actor: RequestActor;
  operation: ImportOperation;
  relations: RelationColumn[];
}

/** What one checkpoint did. `keys`: what its accepted rows named, for the duplicates of later checkpoints. */
export interface CheckpointOutcome {
  created: number;
  updated: number;
  unchanged: number;
  errors: RowError[];
  keys: { key: string; line: number }[];
}

/** Rejects a row of a checkpoint: the error joins the row's and the checkpoint's. */
export type Reject = (row: ImportRow, error: RowError) => void;

/** Rows whose record falls outside the key's rows once written: the checkpoint is written again without them. */
export class ForbiddenRows extends Error {
  constructor(readonly lines: number[]) {
    super(`rows outside the key's rows: ${lines.join(', ')}`);
  }
}

/** The keys a record names: `id:<id>` when it has one, `<path>:<value>` for each unique value it sets. */
export function identities(record: Row, keys: UniqueKey[]): string[] {
  const own = typeof record.id === 'string' ? [`id:${record.id}`] : [];
  return [
    ...own,
    ...keys.flatMap((key) => (key.valueOf(record) === undefined ? [] : [`${key.path}:${key.valueOf(record)}`])),
  ];
}

/** Who holds each id and unique value among the candidates of a checkpoint (as upserts match). */
export interface Holders {
  byId: Set<string>;
  byKey: Map<string, Row>[];
}

export function holdersOf(keys: UniqueKey[], candidates: Row[]): Holders {
  return { byId: new Set(candidates.map((row) => row.id as string)), byKey: keyHolders(keys, candidates) };
}

/** Each existing record a row names (by id, by each unique value), with the paths that name it. */
export function matchesOf(record: Row, keys: UniqueKey[], held: Holders): Map<string, string[]> {
  const matches = new Map<string, string[]>();
  const add = (id: string, path: string) => matches.set(id, [...(matches.get(id) ?? []), path]);
  if (typeof record.id === 'string' && held.byId.has(record.id)) add(record.id, 'id');
  keys.forEach((key, k) => {
    const value = key.valueOf(record);
    const row = value === undefined ? undefined : held.byKey[k].get(value);
    if (row) add(row.id as string, key.path);
  });
  return matches;
}
