import type { AppConfig } from '../config/app-config';
import type { Access } from './access';
import type { ApiRecord } from './record';

/**
 * Named overrides of the shared CRUD behaviour for one collection. Every use says why in the
 * collection's folder; the generic service calls them at fixed points.
 */
export interface CollectionHooks {
  /** Stored columns that are not API fields (declared on the entity), filled by `beforeCreate`. */
  hiddenColumns?: string[];
  /**
   * Called for each record before it is inserted. Returns the values of the hidden columns and
   * fields to add to this create response only (e.g. a secret shown once).
   */
  beforeCreate?(input: Record<string, unknown>): {
    hidden?: Record<string, unknown>;
    response?: Record<string, unknown>;
  };

  /**
   * For a collection whose rows are about records of other collections (audit log, timeline): the
   * filter (grammar of list filters) of the rows a key that can read only `readable` may see.
   */
  visibleRows?(readable: readonly { plural: string; singular: string }[]): string;
  /** Removes from one of its records what the key may not read of the records it is about (their hidden fields). */
  redact?(record: ApiRecord, access: Access): ApiRecord;
  /**
   * Called with the validated fields of each record a create, upsert or update (one or many) is
   * about to write, before anything is written. Returns the problems (a 400 naming them, nothing
   * written), none when the fields are acceptable. Asynchronous: it may look things up
   * (webhooks resolve the host of their target).
   */
  checkFields?(fields: Record<string, unknown>, config: AppConfig): Promise<string[]>;
}
