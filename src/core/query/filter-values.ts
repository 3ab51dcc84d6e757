import { isIsoDate, isIsoDateTime, isUuid } from '../fields/field-rules';
import type { ScalarFieldType } from '../fields/field-definition';
import { FILTER_OPERATORS, FilterOperator, ScalarValue } from './parse-filter';
import { QueryError } from '../errors/query-error';
import { ColumnRef } from '../model/column-ref';

/** Operators each stored type accepts. */
const TEXT_OPS = FILTER_OPERATORS.filter((op) => op !== 'containsAny');
const ORDERED_OPS: FilterOperator[] = ['eq', 'neq', 'in', 'is', 'gt', 'gte', 'lt', 'lte'];
export const OPERATORS_BY_TYPE: Record<ScalarFieldType, readonly FilterOperator[]> = {
  TEXT: TEXT_OPS,
  RICH_TEXT: TEXT_OPS,
  NUMBER: ORDERED_OPS,
  NUMERIC: ORDERED_OPS,
  POSITION: ORDERED_OPS,
  DATE_TIME: ORDERED_OPS,
  DATE: ORDERED_OPS,
  BOOLEAN: ['eq', 'neq', 'is'],
  UUID: ['eq', 'neq', 'in', 'is'],
  SELECT: ['eq', 'neq', 'in', 'is'],
  RATING: ['eq', 'neq', 'in', 'is'],
  MULTI_SELECT: ['containsAny', 'is'],
  ARRAY: ['containsAny', 'is'],
  RAW_JSON: ['is'],
};

const NUMBER_RE = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function invalid(ref: ColumnRef, value: string, expected: string): QueryError {
  return new QueryError(`Invalid filter value '${value}' for field '${ref.path}': expected ${expected}`);
}

/** Converts one filter value to the JS value bound for the column; throws QueryError on a mismatch. */
export function convertFilterValue(ref: ColumnRef, scalar: ScalarValue): unknown {
  const text = scalar.text;
  if (text.includes('\u0000')) throw invalid(ref, text.replaceAll('\u0000', '\\0'), 'no NUL characters');
  switch (ref.type) {
    case 'NUMBER':
    case 'NUMERIC':
    case 'POSITION': {
      const n = Number(text);
      if (!NUMBER_RE.test(text) || !Number.isFinite(n)) throw invalid(ref, text, 'a number');
      return n;
    }
    case 'BOOLEAN':
      if (text !== 'true' && text !== 'false') throw invalid(ref, text, 'true or false');
      return text === 'true';
    case 'DATE_TIME':
      if (!isIsoDateTime(text)) throw invalid(ref, text, 'an ISO 8601 date-time, e.g. 2026-11-21T10:04:05Z');
      return text;
    case 'DATE':
      if (!isIsoDate(text)) throw invalid(ref, text, 'an ISO 8601 date, e.g. 2026-11-21');
      return text;
    case 'UUID':
      if (!isUuid(text)) throw invalid(ref, text, 'a UUID');
      return text.toLowerCase();
    case 'SELECT':
    case 'RATING':
    case 'MULTI_SELECT':
      if (!ref.options!.includes(text)) throw invalid(ref, text, `one of ${ref.options!.join(', ')}`);
      return text;
    default:
      return text;
  }
}

/** Checks that an operator applies to the column's type. */
export function checkOperator(ref: ColumnRef, operator: FilterOperator): void {
  const allowed = OPERATORS_BY_TYPE[ref.type];
  if (!allowed.includes(operator)) {
    throw new QueryError(
      `Operator '${operator}' cannot be used on field '${ref.path}' (${ref.type}); allowed: ${allowed.join(', ')}`,
    );
  }
}

/** Escapes LIKE wildcards so that startsWith / endsWith match the value literally. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
