// Counts of one text field's equality to literals answered from its table of value counts held as
// a JS Map (value -> count), on the event loop, with no statement run: the bench's filtered count
// (origin = 'SFO') otherwise wakes a libuv thread and DuckDB's for a 229-row table (bench/README.md,
// ClickHouse). An index of ingest-time data, not a result cache: it holds what the pinned file holds,
// and is dropped before its table is replaced.
//
// Exact by construction: only a count statement of the one shape odsql compiles over a table of
// value counts (src/odsql/value-counts.ts) is taken, its condition one of `"f" = 'v'`, `'v' = "f"`,
// `"f" IN ('v', ...)` or `("f" = 'v') OR ("f" = 'w') ...` over the table's VARCHAR column, string
// literals only. DuckDB compares VARCHARs byte by byte (no collation is set), null never equals, so
// the count is the sum of the distinct values' counts. Anything else (numbers, dates, AND, NOT,
// functions, another table) returns null and runs as SQL.
import { VALUE_COUNT_COLUMN } from '../../catalog/schema.js';
import { quoteIdentifier } from '../../sql/quoting.js';

/**
 * JS heap held for all lookups: 8 MiB, each entry counted at 80 bytes plus 2 a character (measured
 * with V8's gc: 53 bytes an entry for keys of 4-8 characters, 123 for 40; the count errs high):
 * about 90,000 short values, more than the tables a 24 MB share of small tables holds.
 */
export const LOOKUP_BUDGET_BYTES = 8 * 1024 * 1024;

/** Estimated heap bytes of an entry besides its string's characters. */
const ENTRY_BYTES = 80;

/** A string literal as odsql writes it (quoteString: quotes doubled, no escapes). */
const LITERAL = String.raw`'(?:[^']|'')*'`;
const COUNT_SQL = new RegExp(
  String.raw`^SELECT coalesce\(sum\(${quoteIdentifier(VALUE_COUNT_COLUMN)}\), 0\) AS total_count FROM ("(?:[^"]|"")+") WHERE \((.*)\)$`,
  's',
);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The text of a string literal as a whole (its quotes doubled), or null when DuckDB would compare another. */
function literalText(sql: string): string | null {
  const text = sql.slice(1, -1).replaceAll("''", "'");
  // A lone surrogate reaches DuckDB as U+FFFD, and would not find that value here.
  return LONE_SURROGATE.test(text) ? null : text;
}

/**
 * The values `condition` compares `column` (quoted, no single quote in it) to, or null when it is
 * not an equality, an IN list or an OR of equalities of literals. Matched whole: a literal's
 * closing quote is followed by no quote in any of the shapes, so the match reads the literals as
 * DuckDB does.
 */
export function equalityValues(column: string, condition: string): string[] | null {
  const col = escape(column);
  const equality = `(?:${col} = ${LITERAL}|${LITERAL} = ${col})`;
  const shapes = [
    `${equality}`,
    `${col} IN \\(${LITERAL}(?:, ${LITERAL})*\\)`,
    `\\(${equality}\\)(?: OR \\(${equality}\\))+`,
  ];
  if (!shapes.some((shape) => new RegExp(`^${shape}$`, 's').test(condition))) return null;
  const values = [...condition.matchAll(new RegExp(LITERAL, 'gs'))].map((m) => literalText(m[0]));
  return values.every((v): v is string => v !== null) ? values : null;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The table and the condition of a count statement over a table of value counts, or null. */
function countParts(sql: string): { table: string; condition: string } | null {
  const match = COUNT_SQL.exec(sql);
  return match && { table: match[1]!.slice(1, -1).replaceAll('""', '"'), condition: match[2]! };
}

/**
 * The table a count statement reads and the values it counts, when the statement is a lookup's
 * shape over a table whose column (quoted) `columnOf` names; else null. The one test of what a
 * lookup answers, for the engine and for the bench's statements.
 */
export function lookupOf(
  sql: string,
  columnOf: (table: string) => string | undefined,
): { table: string; values: string[] } | null {
  const parts = countParts(sql);
  const column = parts && columnOf(parts.table);
  if (!column) return null;
  const values = equalityValues(column, parts.condition);
  return values && { table: parts.table, values };
}

/** One table's column (quoted) and its counts by value. */
interface Held {
  readonly column: string;
  readonly counts: ReadonlyMap<string, number>;
  readonly bytes: number;
}

export class CountLookups {
  private readonly held = new Map<string, Held>();
  private heldBytes = 0;

  constructor(private readonly budgetBytes = LOOKUP_BUDGET_BYTES) {}

  /**
   * Holds table `name`'s counts of `column` by value (null values left out: no equality keeps
   * them), if they fit the budget; whether it took them.
   */
  hold(name: string, column: string, rows: Iterable<readonly [string | null, number]>): boolean {
    this.release(name);
    if (column.includes("'")) return false;
    const counts = new Map<string, number>();
    let bytes = 0;
    for (const [value, count] of rows) {
      if (value === null) continue;
      counts.set(value, count);
      bytes += ENTRY_BYTES + 2 * value.length;
      if (this.heldBytes + bytes > this.budgetBytes) return false;
    }
    this.held.set(name, { column: quoteIdentifier(column), counts, bytes });
    this.heldBytes += bytes;
    return true;
  }

  /** Forgets table `name` (replaced or dropped). */
  release(name: string): void {
    this.heldBytes -= this.held.get(name)?.bytes ?? 0;
    this.held.delete(name);
  }

  /** The count `sql` answers when it is a count of equalities over a held table, else null. */
  count(sql: string): number | null {
    const lookup = lookupOf(sql, (table) => this.held.get(table)?.column);
    if (lookup === null) return null;
    const { counts } = this.held.get(lookup.table)!;
    let total = 0;
    for (const value of new Set(lookup.values)) total += counts.get(value) ?? 0;
    return total;
  }

  /** Estimated heap bytes held. */
  get bytes(): number {
    return this.heldBytes;
  }
}
