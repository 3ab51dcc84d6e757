import { Type } from '@nestjs/common';
import { declareDuplicateIndexes, recordEntityOptions, setEntityResolver } from '../database/record-entity';
import type { CollectionHooks } from './collection-hooks';

/**
 * Everything the shared CRUD base needs to serve one collection. A collection's folder
 * declares one of these (next to its entity) and its controller is `createCrudController(def)`.
 */
export interface CollectionDefinition {
  /** REST plural, used in paths and list envelopes: `companies`. */
  plural: string;
  /** Singular, used in find-one envelopes and event names: `company`. */
  singular: string;
  /** Pascal singular and plural: `createCompany`, `createCompanies`. */
  pascal: string;
  pascalPlural: string;
  /** TypeORM entity derived with `@RecordEntity`. */
  entity: Function;
  /** The three schema variants, bound as values (never through generic type parameters). */
  create: Type<object>;
  update: Type<object>;
  response: Type<object>;
  /** Field shown as the record's name (timeline, favorites). */
  labelIdentifier?: string;
  /** Each criterion is a list of field paths that must all be equal. */
  duplicateCriteria: string[][];
  /** Whether events on this collection create timelineActivities rows. */
  timeline: boolean;
  /** Named overrides of the generic behaviour (apiKeys tokens...), with their reason. */
  hooks?: CollectionHooks;
}

const registry = new Map<string, CollectionDefinition>();

setEntityResolver((plural) => {
  const def = registry.get(plural);
  if (!def) throw new Error(`Relation to unknown collection '${plural}'`);
  return def.entity;
});

/** Declares a collection and registers it by plural name (names must be unique). */
export function defineCollection(def: CollectionDefinition): CollectionDefinition {
  recordEntityOptions(def.entity); // fails early when the entity is not a @RecordEntity
  const existing = registry.get(def.plural);
  if (existing && existing !== def) throw new Error(`Collection '${def.plural}' is declared twice`);
  if (!existing) declareDuplicateIndexes(def.entity, def.duplicateCriteria);
  registry.set(def.plural, def);
  return def;
}
