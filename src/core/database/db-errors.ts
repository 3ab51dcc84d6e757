import { READ_ONLY_SQLSTATE } from './writable-primary';

/**
 * Classifies errors of the PostgreSQL driver. Constraint violations caused by the request become
 * 400s naming the field; an unreachable database becomes a 503; nothing of the SQL text, the
 * constraint names or the server's messages reaches the client.
 */

export interface PgError extends Error {
  code?: string;
  detail?: string;
  table?: string;
  column?: string;
  constraint?: string;
}

/** A constraint violation, described with the column and value it concerns. */
export interface ConstraintViolation {
  kind: 'unique' | 'foreign-key' | 'not-null' | 'check';
  table?: string;
  column?: string;
  /** The columns of a unique index over several (`column` is then unset). */
  columns?: string[];
  value?: string;
}

const KEY_DETAIL = /^Key \(([^)]+)\)=\((.*)\) (?:already exists|is not present in table)/s;

export function constraintViolation(error: PgError): ConstraintViolation | undefined {
  const kinds: Record<string, ConstraintViolation['kind']> = {
    '23505': 'unique',
    '23503': 'foreign-key',
    // PostgreSQL 17 (PGlite) reports a RESTRICT that fires as its own code
    '23001': 'foreign-key',
    '23502': 'not-null',
    '23514': 'check',
  };
  const kind = error.code ? kinds[error.code] : undefined;
  if (!kind) return undefined;
  const key = error.detail ? KEY_DETAIL.exec(error.detail) : null;
  const columns = (key?.[1] ?? error.column)?.split(/,\s*/).map((c) => c.replace(/^"|"$/g, ''));
  if (columns && columns.length > 1) return { kind, table: error.table, columns, value: key?.[2] };
  return { kind, table: error.table, column: columns?.[0], value: key?.[2] };
}

/** SQLSTATE classes and codes that mean "this input cannot be stored" rather than a bug. */
const BAD_INPUT_CODES = new Set([
  '22001', // string_data_right_truncation
  '22003', // numeric_value_out_of_range
  '22007', // invalid_datetime_format
  '22008', // datetime_field_overflow
  '22021', // character_not_in_repertoire
  '22P02', // invalid_text_representation
  '22P05', // untranslatable_character (\u0000 in jsonb)
  '2202E', // array_subscript_error
  '54000', // program_limit_exceeded (e.g. an index row too large)
]);

export function isBadInputError(error: PgError): boolean {
  return !!error.code && BAD_INPUT_CODES.has(error.code);
}

const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection ended',
  'connect ECONNREFUSED',
  'the database system is starting up',
  'the database system is shutting down',
  'is not currently accepting connections',
];

/** True when the database cannot be reached or is going away (answer 503 and let clients retry). */
export function isUnavailableError(error: PgError): boolean {
  const code = error.code ?? '';
  // class 08 is connection exceptions, except 08P01 (protocol violation: a bug, not an outage)
  if (
    (code.startsWith('08') && code !== '08P01') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code === '53300' ||
    code === READ_ONLY_SQLSTATE // a standby: during a failover, until the endpoint reaches the new primary
  )
    return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE'].includes(code)) return true;
  return UNAVAILABLE_MESSAGES.some((m) => error.message?.includes(m));
}

/**
 * The error of a write statement whose result would leave the rows of the key that sent it
 * (`crm_forbid`, SQLSTATE CRM03, raised by the statement's fence): its message is the 403's, bound
 * by the service (`API key 'x' may only write people matching its filter`), never SQL.
 */
export function isOutsideRowsError(error: PgError): boolean {
  return error.code === 'CRM03' && typeof error.message === 'string';
}

/** A delete refused because records still point at the one deleted (RESTRICT or NO ACTION foreign keys). */
export function isStillReferencedError(error: PgError): boolean {
  return error.code === '23503' || error.code === '23001';
}
