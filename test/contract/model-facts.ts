import { subFieldsOf } from '../../src/core/fields/composite-fields';
import { COMPOSITE_FIELD_TYPES, isRequired } from '../../src/core/fields/field-definition';
import { CollectionCatalog } from '../../src/core/model/collection-catalog';
import { CollectionMeta } from '../../src/core/model/collection-meta';
import { recordEntityOptions } from '../../src/core/model/record-entity-options';
import type { CollectionFacts, Difference, FieldFacts, SubFieldFacts } from './contract-facts';

/** What the service's collection model says, in the shape of the contract's facts. */
export function modelCollection(meta: CollectionMeta): CollectionFacts {
  const { singular, pascal, pascalPlural, timeline, duplicateCriteria } = meta.def;
  const fields: FieldFacts[] = meta.fields.map((f) => ({
    name: f.name,
    type: f.type,
    nullable: f.nullable,
    required: isRequired(f),
    ...(f.options && { options: [...f.options] }),
    ...(f.unique && { unique: true }),
    ...(f.relation && { joinColumnFor: f.relation.name }),
  }));
  for (const r of meta.manyToOne) {
    const { inverse } = meta.fieldByName.get(r.joinColumn)!.relation!;
    fields.push({
      name: r.name,
      type: 'RELATION',
      relation: { kind: r.kind, target: r.target, joinColumn: r.joinColumn, inverse, onDelete: r.onDelete },
    });
  }
  for (const r of meta.oneToMany) {
    // the inverse of a ONE_TO_MANY is the MANY_TO_ONE relation its join column stands for
    const inverse = r.targetMeta!.fieldByName.get(r.joinColumn)!.relation!.name;
    fields.push({
      name: r.name,
      type: 'RELATION',
      relation: { kind: r.kind, target: r.target, inverse, onDelete: r.onDelete },
    });
  }
  if (meta.searchable) fields.push({ name: 'searchVector', type: 'TS_VECTOR' });
  const uniqueIndexes = (recordEntityOptions(meta.def.entity).indexes ?? [])
    .filter((i) => i.unique)
    .map(({ columns, where }) => ({ columns, where }));
  const labelIdentifier = meta.def.labelIdentifier ?? null;
  return { singular, pascal, pascalPlural, labelIdentifier, timeline, duplicateCriteria, uniqueIndexes, fields };
}

export function modelCompositeTypes(): Record<string, SubFieldFacts[]> {
  return Object.fromEntries(
    COMPOSITE_FIELD_TYPES.map((type) => [
      type,
      subFieldsOf(type).map((s) => ({ name: s.name, type: s.type, ...(s.options && { options: [...s.options] }) })),
    ]),
  );
}

const json = (v: unknown) => JSON.stringify(v ?? null);

/** Every fact of `keys` on which `model` and `contract` disagree, named `<at> <key>`. */
function compareKeys(at: string, model: object, contract: object, keys: string[], prefix = ''): Difference[] {
  const m = model as Record<string, unknown>;
  const c = contract as Record<string, unknown>;
  return keys
    .filter((k) => json(m[k]) !== json(c[k]))
    .map((k) => ({ at: `${at} ${prefix}${k}`, model: m[k], contract: c[k] }));
}

/** Two lists of named things: the missing, the extra, and the differences of the common ones. */
function compareNamed<T extends { name: string }>(
  at: string,
  model: T[],
  contract: T[],
  compare: (at: string, model: T, contract: T) => Difference[],
  extraHint: string,
): Difference[] {
  const diffs: Difference[] = [];
  for (const c of contract) {
    const m = model.find((x) => x.name === c.name);
    if (m) diffs.push(...compare(`${at}.${c.name}`, m, c));
    else diffs.push({ at: `${at}.${c.name}`, model: 'missing', contract: c });
  }
  for (const m of model.filter((x) => !contract.some((c) => c.name === x.name)))
    diffs.push({ at: `${at}.${m.name}`, model: m, contract: `not in the contract${extraHint}` });
  return diffs;
}

const FIELD_KEYS = ['type', 'nullable', 'required', 'options', 'unique', 'joinColumnFor'];
const RELATION_KEYS = ['kind', 'target', 'joinColumn', 'inverse', 'onDelete'];
const COLLECTION_KEYS = [
  'singular',
  'pascal',
  'pascalPlural',
  'labelIdentifier',
  'timeline',
  'duplicateCriteria',
  'uniqueIndexes',
];
const DECLARE = ' (declare it in test/contract/contract-additions.ts with its API.md section)';

function compareField(at: string, model: FieldFacts, contract: FieldFacts): Difference[] {
  return [
    ...compareKeys(at, model, contract, FIELD_KEYS),
    ...compareKeys(at, model.relation ?? {}, contract.relation ?? {}, RELATION_KEYS, 'relation.'),
  ];
}

/** Every difference between the catalog and the contract's collections and composite types. */
export function differences(
  catalog: CollectionCatalog,
  contract: Record<string, CollectionFacts>,
  compositeTypes: Record<string, SubFieldFacts[]>,
): Difference[] {
  const model = catalog.all().map((meta) => ({ name: meta.plural, ...modelCollection(meta) }));
  const named = Object.entries(contract).map(([name, facts]) => ({ name, ...facts }));
  const diffs = compareNamed(
    'collections',
    model,
    named,
    (at, m, c) => [
      ...compareKeys(at, m, c, COLLECTION_KEYS),
      ...compareNamed(at, m.fields, c.fields, compareField, DECLARE),
    ],
    DECLARE,
  );
  const composites = (types: Record<string, SubFieldFacts[]>) =>
    Object.entries(types).map(([name, subs]) => ({ name, subs }));
  diffs.push(
    ...compareNamed(
      'compositeTypes',
      composites(modelCompositeTypes()),
      composites(compositeTypes),
      (at, m, c) => compareNamed(at, m.subs, c.subs, (a, ms, cs) => compareKeys(a, ms, cs, ['type', 'options']), ''),
      '',
    ),
  );
  // named as CONTRACT_DEVIATIONS names them: `webhooks.targetUrl required`
  return diffs.map((d) => ({ ...d, at: d.at.replace(/^collections\./, '') }));
}
