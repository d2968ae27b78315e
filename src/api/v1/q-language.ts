// The v1 query language (`q`) read into the ODSQL syntax tree, so v1 filters compile like v2.1 ones.
import type { Field } from '../../catalog/schema.js';
import type { QuerySource } from '../../catalog/source.js';
import { datePathRange, findField, node, QueryLangError, type Expr } from '../../odsql/index.js';

type Operator = ':' | '=' | '>=' | '<=' | '>' | '<';

const fail = (problem: string): never => {
  throw new QueryLangError(problem, ['q']);
};

/** A date or instant as v1 writes it: `2015`, `2015-02-03`, `2015-02-03T10:00:00Z`, `2015/02`. */
const DATE_TEXT =
  /^\d{4}(?:[-/]\d{1,2}(?:[-/]\d{1,2}(?:[T ]\d{2}(?::\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?)?)?)?$/;

/** A literal of the field's type (dates stay text, read in the request's time zone by the compiler). */
function literal(field: Field, text: string): Expr {
  if (field.type === 'int' || field.type === 'double') {
    const value = Number(text);
    return Number.isFinite(value) && text.trim() !== ''
      ? node.number(value)
      : fail(`${text} is not a number for field ${field.name}`);
  }
  if (field.type === 'date' || field.type === 'datetime') {
    return DATE_TEXT.test(text)
      ? node.date(text.replaceAll('/', '-'))
      : fail(`${text} is not a date for field ${field.name}`);
  }
  if (field.type === 'boolean') return node.boolean(/^(true|1)$/i.test(text));
  return node.string(text);
}

/** `field:value`: a word of a text field, a member of a multivalued one, a day/month/year of a date. */
function matches(field: Field, value: string, exact: boolean): Expr {
  const ref = node.field(field.name);
  if (field.annotations.multivalued !== undefined) return node.member(node.string(value), ref);
  if (field.type === 'text') {
    return exact
      ? node.comparison('=', ref, node.string(value))
      : node.call('search', [ref, node.string(value)]);
  }
  if (field.type === 'date' || field.type === 'datetime') {
    const range = datePathRange(value);
    if (range) return node.inRange(ref, node.date(range.start), node.date(range.end), true, false);
  }
  return node.comparison('=', ref, literal(field, value));
}

const COMPARISONS = { '>=': '>=', '<=': '<=', '>': '>', '<': '<' } as const;

/** A recursive-descent reader over the q text; each method consumes what it recognizes. */
class Reader {
  private i = 0;
  constructor(
    private readonly text: string,
    private readonly fields: readonly Field[],
  ) {}

  read(): Expr {
    const expr = this.or();
    this.skip();
    if (this.i < this.text.length)
      fail(`Unexpected ${this.text.slice(this.i, this.i + 20)} at position ${this.i}`);
    return expr;
  }

  private skip(): void {
    while (/\s/.test(this.text[this.i] ?? '')) this.i++;
  }

  private keyword(word: string): boolean {
    this.skip();
    const found =
      this.text.startsWith(word, this.i) &&
      /^[\s(]|^$/.test(this.text.slice(this.i + word.length, this.i + word.length + 1));
    if (found) this.i += word.length;
    return found;
  }

  private or(): Expr {
    const operands = [this.and()];
    while (this.keyword('OR')) operands.push(this.and());
    return operands.length === 1 ? operands[0]! : node.logical('or', operands);
  }

  private and(): Expr {
    const operands = [this.unary()];
    for (;;) {
      this.skip();
      if (this.i >= this.text.length || this.text[this.i] === ')') break;
      const save = this.i;
      if (this.keyword('OR')) {
        this.i = save;
        break;
      }
      this.keyword('AND');
      operands.push(this.unary());
    }
    return operands.length === 1 ? operands[0]! : node.logical('and', operands);
  }

  private unary(): Expr {
    if (this.keyword('NOT')) return node.not(this.unary());
    return this.primary();
  }

  private primary(): Expr {
    this.skip();
    const c = this.text[this.i];
    if (c === undefined) return fail('Unexpected end of query');
    if (c === '(') {
      this.i++;
      const inner = this.or();
      this.expect(')');
      return inner;
    }
    if (c === '#') return this.hashFunction();
    if (c === '"') return node.call('search', [node.star(), node.string(this.quoted())]);
    const term = /^([A-Za-z_][\w.]*)\s*(>=|<=|:|=|>|<)/.exec(this.text.slice(this.i));
    if (term && findField(this.fields, term[1]!)) {
      this.i += term[0].length;
      return this.fieldTerm(this.field(term[1]!), term[2] as Operator);
    }
    const word = this.word();
    return node.call('search', [node.star(), node.string(word)]);
  }

  private fieldTerm(field: Field, op: Operator): Expr {
    this.skip();
    const ref = node.field(field.name);
    if (op in COMPARISONS)
      return node.comparison(COMPARISONS[op as keyof typeof COMPARISONS], ref, literal(field, this.value()));
    if (this.text[this.i] === '[') {
      const close = this.text.indexOf(']', this.i);
      if (close < 0) fail('Range not closed: expected ]');
      const bounds = /^\s*(\S+)\s+TO\s+(\S+)\s*$/.exec(this.text.slice(this.i + 1, close));
      if (!bounds) fail('Expected a range as [low TO high]');
      this.i = close + 1;
      const [low, high] = [bounds![1]!, bounds![2]!];
      if (low === '*' && high === '*') return node.is(ref, 'not_null');
      if (low === '*') return node.comparison('<=', ref, literal(field, high));
      if (high === '*') return node.comparison('>=', ref, literal(field, low));
      return node.inRange(ref, literal(field, low), literal(field, high), true, true);
    }
    const quoted = this.text[this.i] === '"';
    const value = this.value();
    return matches(field, value, op === '=' || quoted);
  }

  /** #null(f), #exact(f, "v"), #startswith(f, "v"), #search(f, "v"). */
  private hashFunction(): Expr {
    const name = /^#(\w+)\s*\(/.exec(this.text.slice(this.i));
    if (!name) return fail(`Expected #function(field, ...) at position ${this.i}`);
    this.i += name[0].length;
    this.skip();
    const field = this.field(/^[\w.]+/.exec(this.text.slice(this.i))?.[0] ?? '');
    this.i += /^[\w.]+/.exec(this.text.slice(this.i))![0].length;
    this.skip();
    let argument: string | null = null;
    if (this.text[this.i] === ',') {
      this.i++;
      this.skip();
      argument = this.text[this.i] === '"' ? this.quoted() : this.value();
    }
    this.expect(')');
    const ref = node.field(field.name);
    const needs = (fn: string): string => argument ?? fail(`#${fn} expects a field and a value`);
    const build: Record<string, () => Expr> = {
      null: () => node.is(ref, 'null'),
      exact: () => matches(field, needs('exact'), true),
      startswith: () => node.call('startswith', [ref, node.string(needs('startswith'))]),
      search: () => node.call('search', [ref, node.string(needs('search'))]),
    };
    const builder = build[name[1]!.toLowerCase()];
    return builder
      ? builder()
      : fail(`Unknown function #${name[1]}: expected #null, #exact, #startswith or #search`);
  }

  private field(name: string): Field {
    return findField(this.fields, name) ?? fail(`Unknown field: ${name}`);
  }

  private expect(char: string): void {
    this.skip();
    if (this.text[this.i] !== char) fail(`Expected ${char} at position ${this.i}`);
    this.i++;
  }

  /** A double-quoted text; backslash escapes the next character. */
  private quoted(): string {
    const match = /^"((?:\\.|[^"\\])*)"/s.exec(this.text.slice(this.i));
    if (!match) return fail(`Quoted text not closed at position ${this.i}`);
    this.i += match[0].length;
    return match[1]!.replace(/\\(.)/gs, '$1');
  }

  private value(): string {
    if (this.text[this.i] === '"') return this.quoted();
    return this.word();
  }

  private word(): string {
    const match = /^[^\s()"]+/.exec(this.text.slice(this.i));
    if (!match) return fail(`Expected a value at position ${this.i}`);
    this.i += match[0].length;
    return match[0];
  }
}

/** The condition of a v1 `q` over a source (a QueryLangError naming `q` when it cannot be read). */
export function parseV1Query(source: QuerySource, q: string): Expr {
  return new Reader(q, source.fields).read();
}
