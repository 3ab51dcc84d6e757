import type { CollectionFacts, FieldFacts } from './contract-facts';

/**
 * What the contract defines outside collections.json (API.md prose sections), written by hand:
 * every collection or field of the model that collections.facts.json does not hold must be
 * declared here with the section that defines it, or the model-vs-contract test fails. An
 * entry is compared with the model like a fact. Contract 0.3 adds, for example:
 *   { section: 'API.md section 16', collection: 'attachments', fields: [
 *       { name: 'size', type: 'NUMBER', nullable: true, required: false }, ...] },
 * and a new collection (roles, section 14) also gives its names: { section, collection, names, fields }.
 */
export interface ContractAddition {
  section: string;
  collection: string;
  /** For a collection that collections.json does not list: its names and collection-level facts. */
  names?: Omit<CollectionFacts, 'fields'>;
  fields: FieldFacts[];
}

export const CONTRACT_ADDITIONS: ContractAddition[] = [
  {
    section: 'API.md section 14.1',
    collection: 'roles',
    names: {
      singular: 'role',
      pascal: 'Role',
      pascalPlural: 'Roles',
      labelIdentifier: 'name',
      timeline: false,
      duplicateCriteria: [['name']],
      uniqueIndexes: [],
    },
    fields: [
      { name: 'name', type: 'TEXT', nullable: false, required: true, unique: true },
      { name: 'description', type: 'TEXT', nullable: true, required: false },
      { name: 'admin', type: 'BOOLEAN', nullable: false, required: false },
      { name: 'permissions', type: 'RAW_JSON', nullable: false, required: false },
      {
        name: 'apiKeys',
        type: 'RELATION',
        relation: { kind: 'ONE_TO_MANY', target: 'apiKeys', inverse: 'role', onDelete: 'RESTRICT' },
      },
    ],
  },
  {
    section: 'API.md section 14 (an API key holds a role)',
    collection: 'apiKeys',
    fields: [
      { name: 'roleId', type: 'UUID', nullable: true, required: false, joinColumnFor: 'role' },
      {
        name: 'role',
        type: 'RELATION',
        relation: {
          kind: 'MANY_TO_ONE',
          target: 'roles',
          joinColumn: 'roleId',
          inverse: 'apiKeys',
          onDelete: 'RESTRICT',
        },
      },
    ],
  },
  {
    section: 'API.md section 16 (files for attachments: set by the upload, read-only for clients)',
    collection: 'attachments',
    fields: [
      { name: 'size', type: 'NUMBER', nullable: true, required: false },
      { name: 'mimeType', type: 'TEXT', nullable: true, required: false },
      { name: 'checksum', type: 'TEXT', nullable: true, required: false },
    ],
  },
];

/**
 * Where the model knowingly differs from a fact, and why. `at` is the difference as the test
 * names it (`<collection>.<field> <fact>`), `model` the model's value; an entry that no longer
 * matches a difference fails the test too (so the list never outlives its reason).
 */
export interface ContractDeviation {
  at: string;
  model: unknown;
  why: string;
}

export const CONTRACT_DEVIATIONS: ContractDeviation[] = [
  {
    at: 'webhooks.targetUrl required',
    model: true,
    why: 'a webhook without a URL could never deliver (collections.json gives it a "" default)',
  },
  // collections.json contradicts itself on these four: CASCADE on the join column (viewGroups.view
  // ...), SET_NULL on the inverse; the join column's side is the one that decides
  ...['viewGroups', 'viewFilters', 'viewFilterGroups', 'viewSorts'].map((child) => ({
    at: `views.${child} relation.onDelete`,
    model: 'CASCADE',
    why: `collections.json gives ${child}.view onDelete CASCADE, and the join column's side decides`,
  })),
];
