// ODSQL text -> AST, through the Jison parser generated from grammars/odsql.jison at build time.
import { createRequire } from 'node:module';
import type { Expr, Item, OrderItem } from './ast.js';
import * as builders from './builders.js';
import { QueryLangError } from './errors.js';
import { MAX_CLAUSE_LENGTH, MAX_DEPTH, MAX_TOKENS } from './limits.js';

interface JisonLexer {
  lex(this: JisonLexer): string | number;
  /** The next token, or nothing for a skipped match (spaces). */
  next(this: JisonLexer): string | number | false;
  yytext: string;
  yylloc: { range: [number, number] };
}
interface JisonParser {
  lexer: JisonLexer;
  terminals_: Record<number, string>;
  yy: Record<string, unknown>;
  parse(text: string): unknown;
}
interface GeneratedModule {
  Parser: new () => JisonParser;
  parser: JisonParser;
}

const generated = createRequire(import.meta.url)('./generated/parser.cjs') as GeneratedModule;

/** The clauses the grammar parses; each has its own start token. */
export type ParsedClause = 'select' | 'where' | 'group_by' | 'order_by';

const START_TOKENS = {
  select: 'START_SELECT',
  where: 'START_WHERE',
  group_by: 'START_GROUP_BY',
  order_by: 'START_ORDER_BY',
} as const satisfies Record<ParsedClause, string>;

/** Where the lexer is: the token the parser looks at when it fails, and how deep the text nests. */
interface LexState {
  started: boolean;
  tokens: number;
  /** Brackets opened and not yet closed. */
  open: number;
  /** Consecutive prefix operators (NOT, -), which each push the parser's stack. */
  prefixes: number;
  lookahead: { text: string; start: number };
}

const OPENING = new Set(['(', '[']);
const CLOSING = new Set([')', ']']);
const PREFIXES = new Set(['NOT', '-']);

/**
 * Jison's parser copies its stack on every reduction, so deep nesting costs quadratic time
 * (bench/README.md, Measurements behind the code). Nesting is bounded here, token by token, before
 * the stack grows.
 */
function trackNesting(state: LexState, symbol: string | number, text: string): void {
  const token = typeof symbol === 'number' ? generated.parser.terminals_[symbol] : symbol;
  if (token === undefined) return;
  if (CLOSING.has(token)) state.open = Math.max(0, state.open - 1);
  else if (OPENING.has(token)) state.open++;
  state.prefixes = PREFIXES.has(token) ? state.prefixes + 1 : 0;
  if (state.open + state.prefixes > MAX_DEPTH) {
    throw new QueryLangError(`Query too deeply nested (more than ${MAX_DEPTH} levels) in ${preview(text)}`);
  }
}

const preview = (text: string): string => (text.length > 50 ? `${text.slice(0, 50)}...` : text);

/** A lexer that first yields the clause's start token, then the generated lexer's tokens. */
function clauseLexer(startToken: string, state: LexState, text: string): JisonLexer {
  const base = generated.parser.lexer;
  const lexer = Object.create(base) as JisonLexer;
  lexer.lex = function lex(this: JisonLexer) {
    if (!state.started) {
      state.started = true;
      return startToken;
    }
    // Jison's own lex() recurses through this method on skipped spaces: read tokens with next() instead.
    let token = this.next();
    while (token === false) token = this.next();
    state.lookahead = { text: this.yytext, start: this.yylloc.range[0] };
    if (++state.tokens > MAX_TOKENS) {
      throw new QueryLangError(`Query too long: more than ${MAX_TOKENS} tokens in ${preview(text)}`);
    }
    trackNesting(state, token, text);
    return token;
  };
  return lexer;
}

/** Terminal names of the grammar as a reader would name them. */
const TOKEN_WORDS: Record<string, string> = {
  IDENT: 'a name',
  BACKQUOTED: 'a back-quoted name',
  STRING: 'a string',
  NUMBER: 'a number',
  QUANTITY: 'a quantity such as 10km',
  DATE_LITERAL: "date'...'",
  GEOM_LITERAL: "geom'...'",
  PATTERN: 'a name ending with *',
  EOF: 'end of input',
};

/** Jison's failure, in the public service's wording: `unexpected = at position 8 in garbage==`. */
function syntaxError(state: LexState, text: string, expected: readonly string[]): QueryLangError {
  const { text: token, start } = state.lookahead;
  const what = start >= text.length ? 'end of input' : token;
  const words = expected.map((e) => e.replace(/^'|'$/g, '')).map((e) => TOKEN_WORDS[e] ?? e);
  return new QueryLangError(`unexpected ${what} at position ${start} in ${text}`, [], {
    position: start,
    token: what,
    expected: [...new Set(words)].filter((w) => !w.startsWith('START_')),
  });
}

function parseClause(clause: ParsedClause, text: string): unknown {
  if (text.length > MAX_CLAUSE_LENGTH) {
    throw new QueryLangError(`Query too long: ${text.length} characters (at most ${MAX_CLAUSE_LENGTH})`, [
      clause,
    ]);
  }
  if (text.includes('\0')) throw new QueryLangError('NUL character in query', [clause]);
  const state: LexState = {
    started: false,
    tokens: 0,
    open: 0,
    prefixes: 0,
    lookahead: { text: '', start: 0 },
  };
  const parser = new generated.Parser();
  parser.lexer = clauseLexer(START_TOKENS[clause], state, text);
  parser.yy = {
    ...builders,
    parseError: (_message: string, hash: { expected?: string[] }) => {
      throw syntaxError(state, text, hash.expected ?? []);
    },
  };
  try {
    return parser.parse(text);
  } catch (error) {
    if (error instanceof QueryLangError) throw error.inClause(clause);
    throw error;
  }
}

/** Parses a select list. */
export function parseSelect(text: string): readonly Item[] {
  return Object.freeze(parseClause('select', text) as Item[]);
}

/** Parses one where expression (a request may carry several, ANDed). */
export function parseWhereClause(text: string): Expr {
  return parseClause('where', text) as Expr;
}

/** Parses a group_by list. */
export function parseGroupBy(text: string): readonly Item[] {
  return Object.freeze(parseClause('group_by', text) as Item[]);
}

/** Parses an order_by list. */
export function parseOrderBy(text: string): readonly OrderItem[] {
  return Object.freeze(parseClause('order_by', text) as OrderItem[]);
}
