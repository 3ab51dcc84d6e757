import { STATEMENT_KINDS } from './metric-catalog';

export type StatementKind = (typeof STATEMENT_KINDS)[number];

const FIRST_WORD = /^\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*([A-Za-z]+)/;
const WRITE_IN_WITH = /\b(INSERT\s+INTO|UPDATE\s+"|DELETE\s+FROM)/i;
const KINDS: Record<string, StatementKind> = {
  select: 'select',
  insert: 'insert',
  update: 'update',
  delete: 'delete',
  copy: 'copy',
  begin: 'transaction',
  commit: 'transaction',
  rollback: 'transaction',
  savepoint: 'transaction',
  release: 'transaction',
};
/** Statement texts are few (the service's own, with `$n` placeholders): their kinds are kept, up to this many. */
const REMEMBERED = 2000;
const known = new Map<string, StatementKind>();

/**
 * The `db_operation_name` of a statement: its first keyword (select, insert, update, delete, copy;
 * BEGIN/COMMIT/ROLLBACK/SAVEPOINT are `transaction`), a `WITH` counted as the write it holds
 * (insert, update or delete, the first one named) or else as a select; anything else `other`.
 */
export function statementKind(text: string): StatementKind {
  const remembered = known.get(text);
  if (remembered) return remembered;
  const word = FIRST_WORD.exec(text)?.[1]?.toLowerCase() ?? '';
  let kind: StatementKind = KINDS[word] ?? 'other';
  if (word === 'with') {
    const write = WRITE_IN_WITH.exec(text)?.[1]?.slice(0, 6).toLowerCase();
    kind = write ? (KINDS[write] ?? 'other') : 'select';
  }
  if (known.size < REMEMBERED) known.set(text, kind);
  return kind;
}
