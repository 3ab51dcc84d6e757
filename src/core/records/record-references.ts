import { BadRequestException, Injectable } from '@nestjs/common';
import { Queryable } from '../database/db';
import { isStillReferencedError, PgError } from '../database/db-errors';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { Repositories } from '../repository/repositories';

/**
 * Hard deletes refused while records point at the records to delete through a relation declared
 * RESTRICT (a role that keys point at, API.md section 14): a 400 naming how many, counted before
 * the delete (and again when a concurrent write made the database refuse it).
 */
@Injectable()
export class RecordReferences {
  private readonly restricting = new Map<CollectionMeta, { child: CollectionMeta; joinColumn: string }[]>();

  constructor(
    catalog: CollectionCatalog,
    private readonly repositories: Repositories,
  ) {
    for (const child of catalog.all())
      for (const r of child.manyToOne.filter((rel) => rel.onDelete === 'RESTRICT')) {
        const target = catalog.require(r.target);
        this.restricting.set(target, [...(this.restricting.get(target) ?? []), { child, joinColumn: r.joinColumn }]);
      }
  }

  /** 400 when records point at `ids` through a RESTRICT relation (every one counts, whatever the key sees). */
  async refuseInUse(db: Queryable, meta: CollectionMeta, ids: string[]): Promise<void> {
    for (const { child, joinColumn } of this.restricting.get(meta) ?? []) {
      const count = await this.repositories.of(child, undefined).countPointingAt(db, joinColumn, ids);
      if (count > 0)
        throw new BadRequestException(
          `${count} ${child.plural} point at ${ids.length === 1 ? `this ${meta.def.singular}` : `these ${meta.plural}`} (${joinColumn}): ` +
            `a ${meta.def.singular} in use cannot be hard-deleted; point them elsewhere first`,
        );
    }
  }

  /** The error to answer for a hard delete that failed: in use (a record pointed at it meanwhile), or the error itself. */
  async explain(db: Queryable, meta: CollectionMeta, ids: string[], error: unknown): Promise<unknown> {
    if (!this.restricting.has(meta) || !isStillReferencedError(error as PgError)) return error;
    try {
      await this.refuseInUse(db, meta, ids);
    } catch (inUse) {
      return inUse;
    }
    return error;
  }
}
