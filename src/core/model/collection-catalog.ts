import { CollectionDefinition } from './collection-definition';
import { CollectionMeta } from './collection-meta';

/**
 * All collections by plural name, with their relations resolved in both directions
 * (every MANY_TO_ONE join column yields the ONE_TO_MANY array on its target).
 */
export class CollectionCatalog {
  private readonly byPlural = new Map<string, CollectionMeta>();
  private readonly byTable = new Map<string, CollectionMeta>();
  private readonly pluralBySingular = new Map<string, string>();

  constructor(definitions: CollectionDefinition[]) {
    for (const def of definitions) {
      if (this.byPlural.has(def.plural)) throw new Error(`Collection '${def.plural}' is declared twice`);
      const meta = new CollectionMeta(def);
      this.byPlural.set(def.plural, meta);
      this.byTable.set(meta.table, meta);
      this.pluralBySingular.set(def.singular, def.plural);
    }
    for (const meta of this.byPlural.values()) {
      for (const rel of meta.manyToOne) {
        const target = this.byPlural.get(rel.target);
        if (!target) throw new Error(`${meta.plural}.${rel.joinColumn} points at unknown collection '${rel.target}'`);
        const field = meta.fieldByName.get(rel.joinColumn)!;
        target.oneToMany.push({
          name: field.relation!.inverse,
          kind: 'ONE_TO_MANY',
          target: meta.plural,
          joinColumn: rel.joinColumn,
          onDelete: rel.onDelete,
          targetMeta: meta,
        });
        rel.targetMeta = target;
      }
    }
  }

  get(plural: string): CollectionMeta | undefined {
    return this.byPlural.get(plural);
  }

  require(plural: string): CollectionMeta {
    const meta = this.byPlural.get(plural);
    if (!meta) throw new Error(`Unknown collection ${plural}`);
    return meta;
  }

  /** The collection stored in a table (to name fields in database error messages). */
  byTableName(table: string): CollectionMeta | undefined {
    return this.byTable.get(table);
  }

  /** The plural name a singular belongs to (`company` -> `companies`). */
  pluralOf(singular: string): string | undefined {
    return this.pluralBySingular.get(singular);
  }

  all(): CollectionMeta[] {
    return [...this.byPlural.values()];
  }
}
