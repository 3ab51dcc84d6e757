import { q } from '../database/sql';
import { ColumnRef, QueryTarget, RelationHop } from '../model/column-ref';

/** The SQL of relation paths (API.md section 12): filters through relations, and related sort values. */

/**
 * A predicate on a relation path as `EXISTS` over the related table(s), aliased r1, r2: through
 * a many-to-one relation, "the related record matches"; through a one-to-many one, "at least one
 * related record matches" (so `not(...)` around it is "none matches"). Soft-deleted related
 * records never match. The outer row is named by its table, so no column name can be captured.
 */
export function throughRelations(target: QueryTarget, hops: RelationHop[], leaf: string): string {
  let sql = leaf;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    const alias = `r${i + 1}`;
    const outer = i === 0 ? q(target.table) : `r${i}`;
    const join =
      hop.kind === 'MANY_TO_ONE'
        ? `${alias}."id" = ${outer}.${q(hop.joinColumn)}`
        : `${alias}.${q(hop.joinColumn)} = ${outer}."id"`;
    sql = `EXISTS (SELECT 1 FROM ${q(hop.table)} AS ${alias} WHERE ${join} AND ${alias}."deletedAt" IS NULL AND ${sql})`;
  }
  return sql;
}

/** `(SELECT s2."name" FROM "company" s1 JOIN ... WHERE s1."id" = "person"."companyId" ...)`: the value a relation sort reads. */
export function relatedValueSql(target: QueryTarget, ref: ColumnRef): string {
  const hops = ref.hops!;
  const joins = hops
    .slice(1)
    .map(
      (hop, i) =>
        ` JOIN ${q(hop.table)} AS s${i + 2} ON s${i + 2}."id" = s${i + 1}.${q(hop.joinColumn)} AND s${i + 2}."deletedAt" IS NULL`,
    )
    .join('');
  return (
    `(SELECT s${hops.length}.${q(ref.column)} FROM ${q(hops[0].table)} AS s1${joins} ` +
    `WHERE s1."id" = ${q(target.table)}.${q(hops[0].joinColumn)} AND s1."deletedAt" IS NULL)`
  );
}
