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
/**
 * The `db_operation_name` of a statement: its first keyword (select, insert, update, delete, copy;
 * BEGIN/COMMIT/ROLLBACK/SAVEPOINT are `transaction`), a `WITH` counted as the write it holds
 * (insert, update or delete, the first one named) or else as a select; anything else `other`.
 * Read from the text each time, never looked up by it: many texts are built per request, and
 * hashing a fresh text of kilobytes for a cache cost 4 us a statement, more than reading it.
 */
export function statementKind(text: string): StatementKind {
  const word = FIRST_WORD.exec(text)?.[1]?.toLowerCase() ?? '';
  let kind: StatementKind = KINDS[word] ?? 'other';
  if (word === 'with') {
    const write = WRITE_IN_WITH.exec(text)?.[1]?.slice(0, 6).toLowerCase();
    kind = write ? (KINDS[write] ?? 'other') : 'select';
  }
  return kind;
}
