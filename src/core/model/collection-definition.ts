import { Type } from '@nestjs/common';
import type { CollectionHooks } from './collection-hooks';
import { recordEntityOptions } from './record-entity-options';

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
  /** What it holds, in one line (the documentation's tag, the MCP collection list). */
  description: string;
  /** The CRM's main objects: listed first in the documentation, in this order (1, 2...). */
  featured?: number;
  /** TypeORM entity derived with `@RecordEntity`. */
  entity: Type;
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
  /**
   * For a junction collection (note and task targets): its events also appear on the timeline
   * of each record it links, named `<name>.<action>`, with `via` (its own parent) as the linked record.
   */
  linkedTimeline?: { via: string; name: string };
  /**
   * Admin only (API.md section 14): no role grant opens it, because it holds the power to mint
   * keys, grant values or receive every record (apiKeys, roles, webhooks).
   */
  adminOnly?: boolean;
  /**
   * Its records hold a stored file (attachments, API.md section 16): its create route also takes
   * a multipart/form-data upload, and it has the file routes of the route table (content, link).
   */
  files?: boolean;
  /** Named overrides of the generic behaviour (apiKeys tokens...), with their reason. */
  hooks?: CollectionHooks;
}

/**
 * Declares a collection (pure: checks that its entity is a @RecordEntity and returns it). The
 * catalog is built from the list of declarations at start-up (`collections/index.ts`).
 */
export function defineCollection(def: CollectionDefinition): CollectionDefinition {
  recordEntityOptions(def.entity);
  return def;
}
