import { Injectable } from '@nestjs/common';
import { CollectionMeta } from '../model/collection-meta';
import { Row } from '../model/record';

/** A check of a collection's records beyond their fields' declarations: the messages of its problems. */
export type RecordCheck = (record: Row) => string[];

/**
 * Checks of records a collection's module registers with core because they need more than the
 * collection's declaration (a role's grants are checked against the catalog). WriteUnit.checkFields
 * runs them on every write path.
 */
@Injectable()
export class RecordChecks {
  private readonly checks = new Map<string, RecordCheck>();

  register(plural: string, check: RecordCheck): void {
    this.checks.set(plural, check);
  }

  /** The problems of one record's fields (none for a collection without a registered check). */
  problems(meta: CollectionMeta, record: Row): string[] {
    return this.checks.get(meta.plural)?.(record) ?? [];
  }
}
