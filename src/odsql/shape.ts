// Shaped rows: the output columns of a compiled query re-expressed cell by cell for a writer (an
// export format), as a small closed AST that odsql writes in the engine's SQL (shape-sql.ts). A
// writer says what each cell holds (a value as text, XML-escaped, inside an object...), never
// how the engine spells it: the formatting per value is still the engine's work.
import type { OutputColumn } from './types.js';

/** Storage types a cell can be cast to for writers of typed values (Arrow, dBASE, shapes). */
export type CellType = 'int' | 'double' | 'bool' | 'date' | 'instant' | 'text-list';

/** One entry of an object cell: its key as written, its value. */
export type ObjectEntry = readonly [key: string, value: Cell];

/** A cell of a shaped row. Each kind is written by one entry of shape-sql.ts's table. */
export type Cell =
  /** The output column's value as compiled. */
  | { readonly kind: 'value'; readonly column: OutputColumn }
  /** The value as text (null stays null): points as "lat, lon", lists joined by `separator`. */
  | { readonly kind: 'text'; readonly column: OutputColumn; readonly separator: string }
  /**
   * A number's text as JSON writes it: a whole double below `wholeBelow` without `.0` (2^53: as
   * long as it is exact), -0 as 0.
   */
  | { readonly kind: 'number-text'; readonly cell: Cell; readonly wholeBelow: number }
  /** A number, or null where it is NaN or infinite. */
  | { readonly kind: 'finite'; readonly cell: Cell }
  /** The value cast to a storage type. */
  | { readonly kind: 'cast'; readonly column: OutputColumn; readonly type: CellType }
  /** The record id the query added to ungrouped rows (withRecordId). */
  | { readonly kind: 'record-id' }
  /** A constant text, or null. */
  | { readonly kind: 'literal'; readonly value: string | null }
  /** The texts of `parts` one after the other; null when one of them is null. */
  | { readonly kind: 'concat'; readonly parts: readonly Cell[] }
  /** `cell`, or `otherwise` where it is null. */
  | { readonly kind: 'coalesce'; readonly cell: Cell; readonly otherwise: Cell }
  /** A list cell's items joined by `separator` into one text. */
  | { readonly kind: 'join'; readonly cell: Cell; readonly separator: string }
  /** XML character data of a text: escaped, the characters XML 1.0 forbids removed. */
  | { readonly kind: 'xml'; readonly cell: Cell }
  /** A JSON cell's text. */
  | { readonly kind: 'json-text'; readonly cell: Cell }
  /** `cell` where `column` holds a value (not null, not an empty list), else null. */
  | { readonly kind: 'when-present'; readonly column: OutputColumn; readonly cell: Cell }
  /** The texts of `parts` that are not null, separated by `separator`. */
  | { readonly kind: 'separated'; readonly parts: readonly Cell[]; readonly separator: string }
  /** A multivalued column's list with each element replaced by `item` (which reads it as 'item'). */
  | { readonly kind: 'each'; readonly column: OutputColumn; readonly item: Cell }
  /** The element of the list that the enclosing 'each' replaces. */
  | { readonly kind: 'item' }
  /**
   * The RDF lexical form of a value `of` of `type` (a column's value, or an item of its list):
   * XSD's numbers (NaN, INF), points and shapes as WKT, other values as text without the
   * characters XML 1.0 forbids.
   */
  | { readonly kind: 'rdf-lexical'; readonly type: OutputColumn['type']; readonly of: Cell }
  /** A text as the body of a Turtle string: backslashes, quotes, line breaks and tabs escaped. */
  | { readonly kind: 'turtle-string'; readonly cell: Cell }
  /** A text percent-encoded as encodeURIComponent does, `.` and `..` too (an IRI's path segment). */
  | { readonly kind: 'uri-component'; readonly cell: Cell }
  /**
   * Excel's serial day number (a double) of a date's or datetime's ISO text at its wall clock;
   * null where a sheet cannot show it (before 1900, after 9999).
   */
  | { readonly kind: 'excel-serial'; readonly cell: Cell; readonly from: 'date' | 'datetime' }
  /**
   * An object of `entries`: 'json' a JSON object, 'struct' a struct (which the engine's JSON
   * writer writes as fast as plain columns; keys must differ beyond case), 'json-non-null' a JSON
   * object of the entries whose value is not null.
   */
  | {
      readonly kind: 'object';
      readonly form: 'json' | 'struct' | 'json-non-null';
      readonly entries: readonly ObjectEntry[];
    }
  /** A value as JSON (v1's records): a point as [lat, lon], a shape its bare geometry. */
  | { readonly kind: 'json-value'; readonly column: OutputColumn }
  /**
   * A geo column's GeoJSON geometry (null: none): 'text' its text, 'json' a JSON value, 'nested' a
   * value the engine's JSON writer nests as it is (a point built as a struct).
   */
  | {
      readonly kind: 'geometry';
      readonly column: OutputColumn | null;
      readonly form: 'text' | 'json' | 'nested';
    };

/** A column of shaped rows: its name (null: unnamed, for writers that read cells by position). */
export interface ShapedColumn {
  readonly name: string | null;
  readonly cell: Cell;
}

/** Cell factories, so that writers read as what they write. */
export const cell = {
  value: (column: OutputColumn): Cell => ({ kind: 'value', column }),
  text: (column: OutputColumn, separator: string): Cell => ({ kind: 'text', column, separator }),
  numberText: (of: Cell, wholeBelow = 2 ** 53): Cell => ({ kind: 'number-text', cell: of, wholeBelow }),
  finite: (of: Cell): Cell => ({ kind: 'finite', cell: of }),
  cast: (column: OutputColumn, type: CellType): Cell => ({ kind: 'cast', column, type }),
  recordId: (): Cell => ({ kind: 'record-id' }),
  literal: (value: string | null): Cell => ({ kind: 'literal', value }),
  concat: (...parts: readonly Cell[]): Cell => ({ kind: 'concat', parts }),
  coalesce: (of: Cell, otherwise: Cell): Cell => ({ kind: 'coalesce', cell: of, otherwise }),
  join: (of: Cell, separator: string): Cell => ({ kind: 'join', cell: of, separator }),
  xml: (of: Cell): Cell => ({ kind: 'xml', cell: of }),
  jsonText: (of: Cell): Cell => ({ kind: 'json-text', cell: of }),
  whenPresent: (column: OutputColumn, of: Cell): Cell => ({ kind: 'when-present', column, cell: of }),
  separated: (separator: string, parts: readonly Cell[]): Cell => ({ kind: 'separated', parts, separator }),
  each: (column: OutputColumn, item: Cell): Cell => ({ kind: 'each', column, item }),
  item: (): Cell => ({ kind: 'item' }),
  rdfLexical: (type: OutputColumn['type'], of: Cell): Cell => ({ kind: 'rdf-lexical', type, of }),
  turtleString: (of: Cell): Cell => ({ kind: 'turtle-string', cell: of }),
  uriComponent: (of: Cell): Cell => ({ kind: 'uri-component', cell: of }),
  excelSerial: (of: Cell, from: 'date' | 'datetime'): Cell => ({ kind: 'excel-serial', cell: of, from }),
  object: (form: 'json' | 'struct' | 'json-non-null', entries: readonly ObjectEntry[]): Cell => ({
    kind: 'object',
    form,
    entries,
  }),
  jsonValue: (column: OutputColumn): Cell => ({ kind: 'json-value', column }),
  geometry: (column: OutputColumn | null, form: 'text' | 'json' | 'nested'): Cell => ({
    kind: 'geometry',
    column,
    form,
  }),
} as const;

/** The escapes of a Turtle string's body (a `turtle-string` cell), each dialect's replace() in turn. */
export const TURTLE_ESCAPES: readonly (readonly [string, string])[] = [
  ['\\', '\\\\'],
  ['"', '\\"'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
];
