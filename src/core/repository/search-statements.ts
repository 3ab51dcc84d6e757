import { Queryable } from '../database/db';
import { q } from '../database/sql';
import { Row } from '../model/record';
import { CollectionMeta } from '../model/collection-meta';
import { SearchQuery } from '../query/search-query';
import { SqlParams } from '../query/sql-params';
import { RowScope } from './row-scope';

/**
 * The one statement of a search across collections: for each collection, the live records whose
 * search vector matches the prefixes (its GIN index), ranked (a whole word counts more than a
 * prefix: the rank of the exact words is added); all of them in one order (rank
 * descending, id ascending), after the cursor, one page. Each record comes back as JSON of its
 * stored columns, which the collection's codec reads as it reads a row.
 */
// constants of the statement (not a joined CTE), so that the planner matches them with the GIN indexes
const PREFIXES = `to_tsquery('simple', $1)`;
const EXACT = `to_tsquery('simple', $2)`;

/** `scopeOf`: the rows a key sees in each collection (its role's filters), ANDed into each collection's branch. */
export function searchRows(
  db: Queryable,
  query: SearchQuery,
  limit: number,
  scopeOf: (meta: CollectionMeta) => RowScope | undefined,
): Promise<Row[]> {
  const values: unknown[] = [query.tsquery, query.exact];
  const branches = query.collections.map((meta) => {
    values.push(meta.def.singular);
    const singular = `$${values.length}`;
    const scope = scopeOf(meta);
    const params = new SqlParams(values.length);
    const rows = scope ? ` AND ${scope.sql(params)}` : '';
    values.push(...params.values);
    return (
      `SELECT ${singular}::text AS "objectNameSingular", t."id" AS "recordId", ` +
      `(ts_rank(t."searchVector", ${PREFIXES}) + ts_rank(t."searchVector", ${EXACT}))::real AS "tsRank", ` +
      `ts_rank_cd(t."searchVector", ${PREFIXES}) AS "tsRankCD", to_jsonb(t) - 'searchVector' AS "record" ` +
      `FROM ${q(meta.table)} AS t WHERE t."searchVector" @@ ${PREFIXES} AND t."deletedAt" IS NULL${rows}`
    );
  });
  let after = '';
  if (query.after) {
    values.push(query.after.rank, query.after.id);
    after = ` WHERE "tsRank" < $${values.length - 1}::real OR ("tsRank" = $${values.length - 1}::real AND "recordId" > $${values.length}::uuid)`;
  }
  return db.query(
    `SELECT * FROM (${branches.join(' UNION ALL ')}) AS s${after} ` +
      `ORDER BY "tsRank" DESC, "recordId" ASC LIMIT ${limit}`,
    values,
  );
}
