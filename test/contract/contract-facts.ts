import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_ADDITIONS, CONTRACT_DEVIATIONS, ContractAddition, ContractDeviation } from './contract-additions';

/** One field as the contract states it (collections.facts.json, written by npm run contract:refresh). */
export interface FieldFacts {
  name: string;
  type: string;
  nullable?: boolean;
  /** Not nullable and no default: a create without it is refused. */
  required?: boolean;
  options?: string[];
  unique?: boolean;
  /** On a join column: the MANY_TO_ONE relation it stands for. */
  joinColumnFor?: string;
  relation?: { kind: string; target: string; joinColumn?: string; inverse: string; onDelete: string };
}

export interface CollectionFacts {
  singular: string;
  pascal: string;
  pascalPlural: string;
  labelIdentifier: string | null;
  timeline: boolean;
  duplicateCriteria: string[][];
  /** Unique indexes over several columns (collections.json `indexes`, the unique ones). */
  uniqueIndexes: { columns: string[]; where?: string }[];
  fields: FieldFacts[];
}

export interface SubFieldFacts {
  name: string;
  type: string;
  options?: string[];
}

export interface ContractFacts {
  compositeTypes: Record<string, SubFieldFacts[]>;
  collections: Record<string, CollectionFacts>;
}

/** The facts copy of collections.json, as committed. */
export function factsCopy(): ContractFacts {
  return JSON.parse(readFileSync(join(__dirname, 'collections.facts.json'), 'utf8')) as ContractFacts;
}

/**
 * The contract's collections: the facts copy plus the hand-written additions of other API.md
 * sections (an addition that repeats a fact is an error: the facts copy already has it).
 */
export function contractCollections(
  facts: ContractFacts = factsCopy(),
  additions: ContractAddition[] = CONTRACT_ADDITIONS,
): Record<string, CollectionFacts> {
  const collections = structuredClone(facts.collections);
  for (const addition of additions) {
    const where = `${addition.collection} (${addition.section})`;
    let target = collections[addition.collection];
    if (!target) {
      if (!addition.names) throw new Error(`addition ${where}: a new collection needs its names`);
      target = collections[addition.collection] = { ...addition.names, fields: [] };
    } else if (addition.names && addition.collection in facts.collections) {
      throw new Error(`addition ${where}: collections.json already lists this collection`);
    }
    for (const field of addition.fields) {
      if (target.fields.some((f) => f.name === field.name))
        throw new Error(`addition ${where}: field ${field.name} is already in the facts`);
      target.fields.push(field);
    }
  }
  return collections;
}

/** The required fields of a collection according to the contract (its facts and additions). */
export function requiredByContract(plural: string, collections = contractCollections()): string[] {
  const deviations = new Map(CONTRACT_DEVIATIONS.map((d) => [d.at, d.model]));
  return collections[plural].fields
    .filter((f) => deviations.get(`${plural}.${f.name} required`) ?? f.required)
    .map((f) => f.name);
}

/** A difference between the model and the contract, named as CONTRACT_DEVIATIONS names them. */
export interface Difference {
  at: string;
  model: unknown;
  contract: unknown;
}

/** The differences that no deviation explains, plus every deviation that explains none. */
export function unexplained(differences: Difference[], deviations: ContractDeviation[] = CONTRACT_DEVIATIONS) {
  const explains = (d: ContractDeviation, diff: Difference) =>
    d.at === diff.at && JSON.stringify(d.model) === JSON.stringify(diff.model);
  return [
    ...differences.filter((diff) => !deviations.some((d) => explains(d, diff))),
    ...deviations
      .filter((d) => !differences.some((diff) => explains(d, diff)))
      .map((d) => ({ at: d.at, model: d.model, contract: 'a deviation that no longer applies: remove it' })),
  ];
}
