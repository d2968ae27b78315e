// The grammar of v1's q: OR over AND over NOT (AND implicit between terms), parentheses, full-text
// words and phrases, field queries (`field:value`, comparisons, ranges, `field:(a OR b)`) and #
// functions, read by recursive descent into one ODSQL condition.
import type { Field } from '../../../catalog/schema.js';
import { findField, node, type Expr } from '../../../odsql/index.js';
import { Cursor, fail } from './cursor.js';
import { condition } from './functions.js';
import { nowValue } from './now.js';
import { between, compare, matches, type Bound, type Comparison, type Value } from './values.js';

/** A field name and its operator: `==` and `=` are exact, `:` a match, the others comparisons. */
const FIELD_OPERATOR = /([A-Za-z_][\w.]*)\s*(==|>=|<=|:|=|>|<)/y;
const FUNCTION = /#(\w+)\s*\(/y;
/** A bare range bound: anything but blanks, brackets and the `..` separator. */
const BOUND = /(?:[^\s[\].]|\.(?!\.))+/y;
const COMPARISONS: ReadonlySet<string> = new Set<Comparison>(['<', '<=', '>', '>=']);
/** Parentheses and NOTs nest at most this deep: the reader recurses on each. */
const MAX_DEPTH = 64;

/** Reads one q text over a source's fields. */
export class Reader {
  private readonly cursor: Cursor;
  private depth = 0;

  constructor(
    text: string,
    private readonly fields: readonly Field[],
  ) {
    this.cursor = new Cursor(text);
  }

  read(): Expr {
    const expr = this.or(null);
    if (this.cursor.peek() !== undefined) this.cursor.unexpected();
    return expr;
  }

  /** `scope`: the field of a `field:( ... )` group, which its bare words and phrases match. */
  private or(scope: Field | null): Expr {
    const operands = [this.and(scope)];
    while (this.cursor.keyword('OR')) operands.push(this.and(scope));
    return operands.length === 1 ? operands[0]! : node.logical('or', operands);
  }

  private and(scope: Field | null): Expr {
    const operands = [this.unary(scope)];
    for (;;) {
      const next = this.cursor.peek();
      if (next === undefined || next === ')') break;
      const save = this.cursor.at;
      if (this.cursor.keyword('OR')) {
        this.cursor.at = save;
        break;
      }
      this.cursor.keyword('AND');
      operands.push(this.unary(scope));
    }
    return operands.length === 1 ? operands[0]! : node.logical('and', operands);
  }

  private unary(scope: Field | null): Expr {
    if (++this.depth > MAX_DEPTH) fail(`q nests parentheses and NOTs deeper than ${MAX_DEPTH} levels`);
    const expr = this.cursor.keyword('NOT') ? node.not(this.unary(scope)) : this.primary(scope);
    this.depth--;
    return expr;
  }

  private primary(scope: Field | null): Expr {
    const next = this.cursor.peek();
    if (next === undefined) return fail(`Unexpected end of query at position ${this.cursor.at}`);
    if (next === '(') {
      this.cursor.at++;
      const inner = this.or(scope);
      this.cursor.expect(')', 'closing (');
      return inner;
    }
    if (next === '#') {
      const name = this.cursor.match(FUNCTION) ?? fail(`Expected #function( at position ${this.cursor.at}`);
      return condition(this.cursor, name[1]!, this.fields);
    }
    return this.fieldQuery() ?? this.text(scope, this.cursor.value());
  }

  /** A full-text word or phrase, or in a field's group a match on that field; `*` is every record. */
  private text(scope: Field | null, value: { text: string; quoted: boolean }): Expr {
    if (scope) return matches(scope, value, value.quoted);
    const words = value.quoted ? value.text : value.text.replace(/\*+$/, '');
    if (words === '' && !value.quoted) return node.boolean(true);
    return node.call('search', [node.star(), node.string(words)]);
  }

  /** `field<op>...` when the name is a field (an unknown name before `:` or `=` is a word). */
  private fieldQuery(): Expr | null {
    const start = this.cursor.at;
    const found = this.cursor.match(FIELD_OPERATOR);
    if (!found) return null;
    const [, name, op] = found as unknown as [string, string, string];
    const field = findField(this.fields, name);
    if (field) return this.fieldTerm(field, op);
    if (COMPARISONS.has(op) || op === '==') fail(`Unknown field: ${name}`);
    this.cursor.at = start;
    return null;
  }

  private fieldTerm(field: Field, op: string): Expr {
    if (COMPARISONS.has(op)) return compare(field, op as Comparison, this.value());
    const next = this.cursor.peek();
    if (next === '[' || (next === ']' && op === ':')) return this.range(field);
    if (next === '(' && op === ':') {
      this.cursor.at++;
      const inner = this.or(field);
      this.cursor.expect(')', `closing ${field.name}:(`);
      return inner;
    }
    const value = this.value();
    return matches(field, value, op !== ':' || ('quoted' in value && value.quoted));
  }

  /** A value after an operator: `#now(...)`, a quoted text or a word. */
  private value(): Value {
    if (this.cursor.peek() !== '#') return this.cursor.value();
    const name = this.cursor.match(/#(\w+)/y)?.[1] ?? '';
    if (name.toLowerCase() !== 'now')
      fail(`#${name} is not a value: only #now() is (position ${this.cursor.at})`);
    return { expr: nowValue(this.cursor) };
  }

  /** `[low TO high]`, `[low..high]`; `]` before low or `[` after high exclude that bound. */
  private range(field: Field): Expr {
    const lowInclusive = this.cursor.peek() === '[';
    this.cursor.at++;
    const low = this.bound();
    this.cursor.skip();
    if (!this.cursor.keyword('TO') && !this.cursor.match(/\.\./y)) {
      fail(`Expected a range as [low TO high] at position ${this.cursor.at}`);
    }
    const high = this.bound();
    const close = this.cursor.peek();
    if (close !== ']' && close !== '[')
      return fail(`Range not closed: expected ] at position ${this.cursor.at}`);
    this.cursor.at++;
    return between(field, { value: low, inclusive: lowInclusive }, {
      value: high,
      inclusive: close === ']',
    } satisfies Bound);
  }

  /** A range bound: `*` (open), `#now(...)`, a quoted text or a bare token. */
  private bound(): Value | null {
    const next = this.cursor.peek();
    if (next === '#' || next === '"') return this.value();
    const text =
      this.cursor.match(BOUND)?.[0] ?? fail(`Expected a range bound at position ${this.cursor.at}`);
    return text === '*' ? null : { text, quoted: false };
  }
}
