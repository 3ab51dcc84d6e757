import { QueryError } from '../errors/query-error';
import type { FilterOperator } from '../model/checked-filter';

export type { FilterOperator };

/** Two relations, a field and a composite sub-field: `company.accountOwner.name.lastName`. */
const MAX_PATH_SEGMENTS = 5;

/**
 * Parser of the `filter` query parameter: string -> syntax tree. Pure; fields are checked later.
 *
 * Grammar (whitespace around tokens is ignored):
 *   filter     := expr ( ',' expr )*                       top-level list means AND
 *   expr       := ( 'and' | 'or' ) '(' expr ( ',' expr )* ')'
 *               | 'not' '(' expr ')'
 *               | predicate
 *   predicate  := path '[' operator ']' ':' value
 *   path       := name ( '.' name ){0,4}                     name := [A-Za-z_][A-Za-z0-9_]*
 *                 (a field, a composite sub-field, or relations first: company.accountOwner.name.lastName)
 *   value      := '[' ( scalar ( ',' scalar )* )? ']' | scalar
 *   scalar     := '"' chars '"' | "'" chars "'" | bare     escapes in quotes: \" \' \\
 *   bare       := any characters up to ',' or ')' (or ']' inside a list), trimmed
 *
 * Example: or(name.firstName[ilike]:"%jo%",and(city[in]:['Paris',"Lyon, FR"],employees[gte]:10))
 */

export const FILTER_OPERATORS: readonly FilterOperator[] = [
  'eq',
  'neq',
  'in',
  'containsAny',
  'is',
  'gt',
  'gte',
  'lt',
  'lte',
  'startsWith',
  'endsWith',
  'like',
  'ilike',
];

export interface ScalarValue {
  text: string;
  quoted: boolean;
}
export type FilterValue = { kind: 'scalar'; value: ScalarValue } | { kind: 'list'; items: ScalarValue[] };

export type FilterNode =
  | { kind: 'and' | 'or'; children: FilterNode[] }
  | { kind: 'not'; child: FilterNode }
  | { kind: 'predicate'; path: string[]; operator: FilterOperator; value: FilterValue; position: number };

export const DEFAULT_MAX_FILTER_DEPTH = 32;

class FilterParser {
  private pos = 0;

  constructor(
    private readonly src: string,
    private readonly maxDepth: number,
  ) {}

  private fail(expected: string): never {
    const found = this.pos >= this.src.length ? 'end of filter' : `'${this.src[this.pos]}'`;
    throw new QueryError(`Invalid filter at position ${this.pos}: expected ${expected}, found ${found}`);
  }

  private skipSpaces(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
  }

  private peek(): string | undefined {
    this.skipSpaces();
    return this.src[this.pos];
  }

  private expect(char: string, what = `'${char}'`): void {
    if (this.peek() !== char) this.fail(what);
    this.pos++;
  }

  private name(): string {
    this.skipSpaces();
    const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.src.slice(this.pos));
    if (!match) this.fail('a field name');
    this.pos += match[0].length;
    return match[0];
  }

  parse(): FilterNode {
    if (this.src.trim() === '') throw new QueryError('Invalid filter: the filter is empty');
    const nodes = this.list(0);
    if (this.peek() !== undefined) this.fail("',' or end of filter");
    return nodes.length === 1 ? nodes[0] : { kind: 'and', children: nodes };
  }

  private list(depth: number): FilterNode[] {
    const nodes = [this.expr(depth)];
    while (this.peek() === ',') {
      this.pos++;
      nodes.push(this.expr(depth));
    }
    return nodes;
  }

  private expr(depth: number): FilterNode {
    const start = this.pos;
    const word = this.name();
    if ((word === 'and' || word === 'or' || word === 'not') && this.peek() === '(') {
      if (depth + 1 > this.maxDepth) {
        throw new QueryError(`Invalid filter at position ${start}: nesting deeper than ${this.maxDepth} levels`);
      }
      this.pos++;
      const children = this.list(depth + 1);
      this.expect(')', "',' or ')'");
      if (word === 'not') {
        if (children.length !== 1) {
          throw new QueryError(`Invalid filter at position ${start}: not(...) takes exactly one condition`);
        }
        return { kind: 'not', child: children[0] };
      }
      return { kind: word, children };
    }
    return this.predicate(word, start);
  }

  private predicate(first: string, start: number): FilterNode {
    const path = [first];
    while (this.peek() === '.' && path.length < MAX_PATH_SEGMENTS) {
      this.pos++;
      path.push(this.name());
    }
    this.expect('[', `'[' and an operator after '${path.join('.')}'`);
    const opStart = this.pos;
    const op = /^[A-Za-z]+/.exec(this.src.slice(this.pos))?.[0] ?? '';
    if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
      this.pos = opStart;
      throw new QueryError(
        `Invalid filter at position ${opStart}: unknown operator '${op || this.src.slice(opStart, opStart + 12)}', ` +
          `expected one of ${FILTER_OPERATORS.join(', ')}`,
      );
    }
    this.pos += op.length;
    this.expect(']', `']' after operator '${op}'`);
    this.expect(':', `':' and a value after '${path.join('.')}[${op}]'`);
    return { kind: 'predicate', path, operator: op as FilterOperator, value: this.value(), position: start };
  }

  private value(): FilterValue {
    if (this.peek() === '[') {
      this.pos++;
      const items: ScalarValue[] = [];
      if (this.peek() === ']') {
        this.pos++;
        return { kind: 'list', items };
      }
      items.push(this.scalar(true));
      while (this.peek() === ',') {
        this.pos++;
        items.push(this.scalar(true));
      }
      this.expect(']', "',' or ']' in the list");
      return { kind: 'list', items };
    }
    return { kind: 'scalar', value: this.scalar(false) };
  }

  private scalar(inList: boolean): ScalarValue {
    const quote = this.peek();
    if (quote === '"' || quote === "'") return this.quoted(quote);
    const start = this.pos;
    const stops = inList ? ',)]' : ',)';
    while (this.pos < this.src.length && !stops.includes(this.src[this.pos])) this.pos++;
    const text = this.src.slice(start, this.pos).trim();
    if (text === '') this.fail('a value');
    return { text, quoted: false };
  }

  private quoted(quote: string): ScalarValue {
    const start = this.pos;
    this.pos++;
    let text = '';
    while (this.pos < this.src.length) {
      const char = this.src[this.pos];
      if (char === '\\') {
        const next = this.src[this.pos + 1];
        if (next !== '"' && next !== "'" && next !== '\\') {
          throw new QueryError(
            `Invalid filter at position ${this.pos}: unknown escape '\\${next ?? ''}', expected \\", \\' or \\\\`,
          );
        }
        text += next;
        this.pos += 2;
      } else if (char === quote) {
        this.pos++;
        return { text, quoted: true };
      } else {
        text += char;
        this.pos++;
      }
    }
    throw new QueryError(`Invalid filter at position ${start}: unterminated quoted value, expected a closing ${quote}`);
  }
}

/** Parses a filter string into its syntax tree; throws QueryError with the position of the problem. */
export function parseFilter(source: string, maxDepth = DEFAULT_MAX_FILTER_DEPTH): FilterNode {
  return new FilterParser(source, maxDepth).parse();
}
