/**
 * Grammar and example of the query parameters shared by routes (the parsers in core/query are the
 * authority); those whose text depends on the configuration or the collection (limit, a bulk
 * filter, group-by parameters) are written in route-parameters.ts.
 */
export const QUERY_PARAMETER_DOCS = {
  filter: {
    description:
      'Conditions `field[op]:value`, combined with `and(...)`, `or(...)`, `not(...)`; a top-level comma list means AND. ' +
      'Operators: eq, neq, in, containsAny, is, gt, gte, lt, lte, startsWith, endsWith, like, ilike. ' +
      'Composite sub-fields by dot (`name.firstName`). Values may be quoted with "..." or \'...\' ' +
      '(escapes \\" \\\' \\\\); `in`/`containsAny` take `[a,b]`; `is` takes NULL or NOT_NULL; ' +
      'like/ilike use % wildcards. Soft-deleted records are hidden unless the filter names deletedAt.',
    schema: {
      type: 'string',
      maxLength: 16384,
      examples: ['or(name.firstName[ilike]:"%jo%",city[in]:["Paris","Lyon"])'],
    },
  },
  order_by: {
    description:
      'Sort keys `field[Direction]`, comma separated; directions AscNullsFirst (default), AscNullsLast, ' +
      'DescNullsFirst, DescNullsLast; composite sub-fields by dot. id is always the final tiebreaker.',
    schema: { type: 'string', examples: ['createdAt[DescNullsLast]'] },
  },
  starting_after: {
    description: 'Cursor (pageInfo.endCursor) after which the page starts. Not with ending_before.',
    schema: { type: 'string' },
  },
  ending_before: {
    description: 'Cursor (pageInfo.startCursor) before which the page ends. Not with starting_after.',
    schema: { type: 'string' },
  },
  depth: {
    description:
      'Relations to include: 0 none; 1 (default) related records and arrays of related records; 2 those with their own relations.',
    schema: { type: 'integer', enum: [0, 1, 2], default: 1, examples: [1] },
  },
  fields: {
    description: 'Projection: top-level field names to return (id is always returned).',
    schema: { type: 'string', examples: ['id,name,createdAt'] },
  },
  upsert: {
    description:
      'true: each record is matched to an existing one by id and by the unique fields of the collection; a match is ' +
      'updated with the fields sent (PATCH semantics, a soft-deleted match is restored), no match is created. ' +
      'The body is then validated as partial records.',
    schema: { type: 'boolean', default: false },
  },
  format: {
    description: 'Export format: ndjson (one JSON record per line) or csv (RFC 4180, a header row). Required.',
    schema: { type: 'string', enum: ['ndjson', 'csv'], examples: ['csv'] },
  },
  soft_delete: {
    description: 'true: set deletedAt instead of deleting the record (restore with PATCH .../restore).',
    schema: { type: 'boolean', default: false, examples: [false] },
  },
} as const;
