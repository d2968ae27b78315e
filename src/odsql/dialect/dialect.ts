// What the compiler asks of the SQL it writes for one engine: quoting, the spelling of operators and
// one spelling per function name. The registry (functions/) says what a function means; a dialect
// says how its engine writes it, and a name it does not spell is refused at analysis (kysely's
// Dialect with its overridable query compiler, malloy's dialect/<db>/).
import type { Field } from '../../catalog/schema.js';
import type { ArithmeticOp, Call, ComparisonOp } from '../ast.js';
import { QueryLangError } from '../errors.js';
import type { FacetKey } from '../facet-key.js';
import type { Lang } from '../functions/date-names.js';
import type { Arg, FunctionEntry } from '../functions/registry.js';
import type { Cell } from '../shape.js';
import type { DateLikeType, ValueType } from '../types.js';

/**
 * json: each value in the API's JSON shape (JSON documents: the API, json, jsonl, geojson);
 * text: the same, but JSON text as stored (explore-api.md: json_format() on exports other than
 * JSON), for formats that write text cells; native: storage types (Parquet, Arrow).
 */
export type Output = 'json' | 'text' | 'native';

/** An argument with its SQL (empty for literal-only arguments, which spellings read from `node`). */
export interface CompiledArg extends Arg {
  readonly sql: string;
}

/** What a spelling may read of the dataset: its table, its full-text index and its fields. */
export interface SpelledSource {
  readonly table: string;
  readonly searchTable: string | null;
  readonly fields: readonly Field[];
  /** The column holding how many records each row stands for (a table of value counts); absent: one. */
  readonly weight?: string;
}

/** What a function's SQL may depend on besides its arguments. */
export interface CompileContext {
  /** The SQL engine's spelling. */
  readonly dialect: Dialect;
  readonly source: SpelledSource;
  readonly timezone: string;
  readonly lang: Lang;
  readonly output: Output;
  /** SQL naming a row: its ordinal, or the group keys of a grouped query (for random()). */
  readonly rowIdentity: string;
  /** Every quantile fraction the query asks of each argument (by structural key), so they share one state. */
  readonly quantiles?: ReadonlyMap<string, readonly number[]>;
  /**
   * Where the rows' conditions are compiled: each index search's condition -> the SQL of its
   * ordinals, so that counting the records of a lone search reads the index only (compile.ts).
   */
  readonly ordinalSets?: Map<string, string>;
}

/** SQL of a grouping function: the GROUP BY expression, its output value, and its sort key. */
export interface GroupSql {
  readonly group: string;
  readonly output: string;
  readonly sort: string;
  /** Rows that fall in no group (outside static ranges) are filtered out by this condition. */
  readonly filter: string | null;
  readonly type: ValueType;
}

/** A scalar function, predicate, aggregation or ordering as one SQL expression. */
export type FunctionSpelling = (args: readonly CompiledArg[], ctx: CompileContext, call: Call) => string;

/** A grouping function of group_by (range, geo_cluster). */
export type GroupingSpelling = (args: readonly CompiledArg[], ctx: CompileContext) => GroupSql;

/** SQL of a value in its output shape (supplement 2), for the json and text outputs. */
export type Presenter = (sql: string, ctx: CompileContext) => string;

/** Tests on the list of a multivalued field. */
export interface ListSpelling {
  /** Whether the list holds `value`. */
  readonly contains: (list: string, value: string) => string;
  /** Whether some element satisfies `test`, written over the SQL naming the element. */
  readonly any: (list: string, test: (item: string) => string) => string;
  /** Whether the list holds one of `items`. */
  readonly hasAny: (list: string, items: readonly string[]) => string;
  /** The number of elements. */
  readonly length: (list: string) => string;
}

/**
 * How one engine writes each kind of shaped cell (src/odsql/shape.ts) in its SQL; `sql` writes a
 * cell nested inside it in the same engine's SQL; `output` is the shape the query presents its
 * values in (a geo_shape is its stored text in native output).
 */
export type CellSpelling = {
  readonly [K in Cell['kind']]: (
    cell: Extract<Cell, { kind: K }>,
    sql: (cell: Cell) => string,
    output: Output,
  ) => string;
};

/** The spelling of one SQL engine, handed to the compiler in its context. */
export interface Dialect {
  readonly name: string;
  /** The engine's name in error messages ("median() is not available on this dataset's engine (ClickHouse)"). */
  readonly label: string;
  /** An identifier quoted so that any name, quotes included, stays one identifier. */
  quoteIdentifier(name: string): string;
  /** A string literal quoted so that any text stays one value; NUL is refused. */
  quoteString(value: string): string;
  /** The SQL operator of each ODSQL comparison of two values. */
  readonly comparison: Readonly<Record<ComparisonOp, string>>;
  /**
   * A comparison with a whole date granule (supplement 5: `t > date'2026-08-29'` excludes the whole
   * 29th): `start` is the granule's first instant, `end` the next granule's.
   */
  readonly granule: Readonly<Record<ComparisonOp, (x: string, start: string, end: string) => string>>;
  /** An arithmetic operation over two compiled operands. */
  readonly arithmetic: Readonly<Record<ArithmeticOp, (left: string, right: string) => string>>;
  /** The literal true or false. */
  readonly boolean: (value: boolean) => string;
  /** A number as a double: arithmetic on two integers never overflows mid-query. */
  readonly toDouble: (sql: string) => string;
  /** A value as text (facet labels). */
  readonly toText: (sql: string) => string;
  /** Arithmetic negation, `-x`. */
  readonly negate: (sql: string) => string;
  /** Null-aware negation: `NOT f = 'x'` keeps the rows where f is null (supplement 5). */
  readonly not: (sql: string) => string;
  /** `x IS TRUE` and `x IS FALSE`: never null. */
  readonly isTrue: (sql: string) => string;
  readonly isFalse: (sql: string) => string;
  /** Whether `text` contains `pattern`, case-insensitively (LIKE). */
  readonly containsText: (text: string, pattern: string) => string;
  /** The first `digits` lowercase hex digits of SHA-256 of the texts `key` then `value` (opaque ids). */
  readonly keyedDigest: (key: string, value: string, digits: number) => string;
  readonly lists: ListSpelling;
  /**
   * SQL of a date literal's granule [start, end) as values comparable with a field of
   * `fieldType` (null: the literal's own type); naive times are local to `timezone`.
   */
  readonly dateGranule: (
    text: string,
    fieldType: DateLikeType | null,
    timezone: string,
  ) => { start: string; end: string };
  /** Each type's output shape for the json and text outputs (native is the stored value). */
  readonly present: Readonly<Record<ValueType, Presenter>>;
  /**
   * Rows of `table` (quoted) filtered by `where` (' WHERE ...' or ''), with each multivalued
   * field of `names` unnested (one row per element, a null for an empty list; a cross product);
   * `columns` are every column of the table.
   */
  readonly unnest: (
    table: string,
    where: string,
    names: readonly string[],
    columns: readonly string[],
  ) => { from: string; where: string };
  /**
   * The number of groups on every row of a grouped query; `count` is a query counting them. Null
   * when the engine tells the rows before a page's LIMIT beside its rows (Engine.queryPage).
   */
  readonly groupCount: ((count: string) => string) | null;
  /**
   * Whether the engine reads rows in storage order without ORDER BY (DuckDB over one Parquet
   * file); otherwise ungrouped rows are ordered by their ordinal, so that pages never overlap.
   */
  readonly storageOrder: boolean;
  /**
   * Whether an output's alias replaces the column of that name everywhere in the query (ClickHouse
   * 18.16, qualified names included); then outputs are aliased apart and renamed outside.
   */
  readonly aliasesShadowColumns: boolean;
  /** The page clause (' LIMIT n OFFSET m'; '' for every row); limit null: no limit. */
  readonly limit: (limit: number | null, offset: number) => string;
  /**
   * The statement counting facet `keys` over the rows of `rowsSql`, a compiled query selecting the
   * fields the keys read (facetKeyFields): its rows are (s = index of the key in `keys`, v = value
   * as text, n = count). `unnested`: the keys read one multivalued field, each of whose values is
   * counted. `weight`: the column of the rows saying how many records each stands for (a table
   * of value counts), or null: one each.
   */
  readonly facetCounts: (
    rowsSql: string,
    keys: readonly FacetKey[],
    unnested: boolean,
    timezone: string,
    weight: string | null,
  ) => string;
  /** One spelling per scalar, predicate, aggregate or ordering function name. */
  readonly functions: ReadonlyMap<string, FunctionSpelling>;
  /** One spelling per grouping function name. */
  readonly groupings: ReadonlyMap<string, GroupingSpelling>;
  /** Its entry per kind of shaped cell (shape-sql.ts writes shaped rows with it). */
  readonly cells: CellSpelling;
  /** The longest text, in bytes, of the values of a cell's SQL. */
  readonly maxBytes: (sql: string) => string;
}

/** The clean refusal of what a dataset's engine cannot answer exactly (a 400, never a 500). */
export function unavailable(feature: string, dialect: Dialect): QueryLangError {
  return new QueryLangError(`${feature} is not available on this dataset's engine (${dialect.label})`);
}

/** Whether `dialect` spells the function of `entry` (declarations are never spelled). */
export function spells(dialect: Dialect, entry: FunctionEntry): boolean {
  if (entry.kind === 'declaration') return true;
  return entry.kind === 'grouping' ? dialect.groupings.has(entry.name) : dialect.functions.has(entry.name);
}

/** distance(f, geom) is a value; distance(f, geom, 10km) is v2.0's within_distance (supplement 5). */
export const distanceOrWithin =
  (value: FunctionSpelling, within: FunctionSpelling): FunctionSpelling =>
  (args, ctx, call) =>
    args.length === 3 ? within(args, ctx, call) : value(args, ctx, call);
