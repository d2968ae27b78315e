// Field types of text columns: a type wins when every non-empty cell passes its test, or failing
// that when all but a few do (those few are stored as null and reported as misfits).
// Tests run on a sample first; the full table only confirms the sample's choice.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FieldType } from '../catalog/schema.js';
import { quoteIdentifier } from '../sql/quoting.js';
import {
  cellSql,
  DEFAULT_DIALECT,
  MONTH_FIRST_TWIN,
  textTests,
  type TextDialect,
  type TextTest,
} from './text-tests.js';
import { countTests, type Counts } from './type-counts.js';

/** A column to infer: `text` is a SQL expression giving its cells as VARCHAR. */
export interface TextCandidate {
  readonly text: string;
  /** JSON-typed columns only: the column itself, stored as JSON text if any value is an object or array. */
  readonly json?: string;
}

/** How to find the cells that missed a column's type: `cell` (null when empty) and the test they fail. */
export interface MisfitCheck {
  readonly cell: string;
  readonly fits: string;
}

/** The field type chosen for a candidate and the SQL expression that converts its cells. */
export interface InferredColumn {
  readonly type: FieldType;
  readonly sql: string;
  /** Present when the type was chosen though a few cells do not fit it (stored as null). */
  readonly misfits?: MisfitCheck;
  /** Present when every date reads both day-first and month-first: the two formats; the column stays text. */
  readonly ambiguousDates?: readonly [string, string];
}

/** Rows tested in full before the whole table is touched (fixed seed: the same file samples the same rows). */
const SAMPLE_ROWS = 20_000;

/**
 * Tables of SMALL_SAMPLE_FROM to SAMPLE_ROWS rows are tested on this many rows first, then the
 * table confirms each column's winner and counts only the tests that can still fit: the types
 * are those of every test over every cell (see nearExactly), and the 200-column, 20,000-row file
 * was typed in 4.4-5.0 s of CPU testing every cell, 2.4-3.2 s this way (docs/ingest.md, Types).
 */
const SMALL_SAMPLE_ROWS = 2_000;
const SMALL_SAMPLE_FROM = 4 * SMALL_SAMPLE_ROWS;

/**
 * At most one filled cell in a hundred may miss a type the others fit (so a column of fewer
 * than 100 values must fit entirely); a sample may miss twice as often, the table then decides.
 */
const MISFIT_SHARE = 0.01;
const SAMPLE_MISFIT_SHARE = 0.02;

const NUMERIC: ReadonlySet<FieldType> = new Set(['int', 'double']);

/** Counts of a candidate and the tests they are for. */
interface Verdict {
  readonly counts: Counts;
  readonly tests: readonly TextTest[];
  /** Counted over the whole table, not a sample: its counts hold for every cell. */
  readonly whole: boolean;
}

/** How many filled cells failed `test` (Infinity when it was not run). */
function missesOf({ counts, tests }: Verdict, test: TextTest): number {
  const index = tests.indexOf(test);
  return index < 0 ? Infinity : counts.filled - counts.passed[index]!;
}

/** Tests a column's cells may have within `share` misses; numeric ones only when no cell is a code. */
function fittingTests(verdict: Verdict, share: number): TextTest[] {
  const { filled, codes } = verdict.counts;
  if (filled === 0) return [];
  const allowed = Math.floor(filled * share);
  return verdict.tests.filter(
    (test) => missesOf(verdict, test) <= allowed && !(codes > 0 && NUMERIC.has(test.type)),
  );
}

/** The first of the tests that every non-empty cell passed; undefined when none did or nothing was filled. */
function winnerOf(verdict: Verdict): TextTest | undefined {
  return fittingTests(verdict, 0)[0];
}

/** The month-first twin of a day-first winner when it reads as many cells: the column's dates are ambiguous. */
function ambiguousTwin(all: readonly TextTest[], verdict: Verdict, winner: TextTest): TextTest | undefined {
  const twinFormat = winner.format === undefined ? undefined : MONTH_FIRST_TWIN[winner.format];
  const twin = all.find((t) => twinFormat !== undefined && t.format === twinFormat);
  return twin && missesOf(verdict, twin) <= missesOf(verdict, winner) ? twin : undefined;
}

/** What a candidate became: a type that every cell fits, one all but a few fit, or text. */
interface Choice {
  readonly verdict: Verdict;
  readonly winner?: TextTest;
  readonly tolerant?: boolean;
}

/** The winner's cheaper conversion when every cell of the whole table that passed it has its shape. */
function conversionOf(verdict: Verdict, winner: TextTest): (v: string) => string {
  const index = verdict.tests.indexOf(winner);
  const everyCell = verdict.whole && index >= 0 && verdict.counts.outside[index] === 0;
  return winner.cheaper && everyCell ? winner.cheaper.convert : winner.convert;
}

function result(
  all: readonly TextTest[],
  candidate: TextCandidate,
  choice: Choice,
  dialect: TextDialect,
): InferredColumn {
  const text: InferredColumn = { type: 'text', sql: `nullif(${candidate.text}, '')` };
  if (choice.verdict.counts.nested > 0 && candidate.json) {
    return { type: 'json_blob', sql: `CAST(${candidate.json} AS VARCHAR)` };
  }
  const { winner } = choice;
  if (!winner) return text;
  const twin = ambiguousTwin(all, choice.verdict, winner);
  if (twin) return { ...text, ambiguousDates: [winner.format!, twin.format!] };
  // No cell to trim in the whole table: trim() would return every cell as it is; no empty cell or
  // null token: the token list would never match.
  const { whole, counts } = choice.verdict;
  const cell = cellSql(candidate.text, dialect, {
    trim: !(whole && counts.padded === 0),
    tokens: !(whole && counts.tokens === 0),
  });
  const convert = conversionOf(choice.verdict, winner);
  if (!choice.tolerant) return { type: winner.type, sql: convert(cell) };
  const fits = winner.test(cell);
  return {
    type: winner.type,
    sql: `CASE WHEN ${fits} THEN ${convert(cell)} END`,
    misfits: { cell, fits },
  };
}

/**
 * What the whole table must test after the sample: the sample's winner alone (with its
 * month-first twin if that read the sample too); every test if the sample held no value; only
 * the nested count for JSON text; nothing when the sample already proves the result (a nested
 * value, or no test passed by every cell).
 */
function toConfirm(
  all: readonly TextTest[],
  candidate: TextCandidate,
  verdict: Verdict,
): readonly TextTest[] | null {
  if (verdict.counts.nested > 0) return null;
  if (verdict.counts.filled === 0) return all;
  const winner = winnerOf(verdict);
  if (winner) {
    const twin = ambiguousTwin(all, verdict, winner);
    return twin ? [winner, twin] : [winner];
  }
  return candidate.json ? [] : null;
}

/** After a winner the table did not confirm: the tests after it (those before it failed on the sample). */
function afterUnconfirmed(all: readonly TextTest[], verdict: Verdict): readonly TextTest[] | null {
  const [tested] = verdict.tests;
  const confirming = verdict.tests.length < all.length;
  if (!confirming || !tested || verdict.counts.nested > 0 || winnerOf(verdict)) return null;
  return all.slice(all.indexOf(tested) + 1);
}

/** What every pass of one inference shares: its connection, the dialect's tests in order, the dialect. */
interface Inference {
  readonly connection: DuckDBConnection;
  readonly tests: readonly TextTest[];
  readonly dialect: TextDialect;
}

/** Runs, over `from`, the tests `next` asks for, in one statement; other verdicts stay as they were. */
async function retest(
  inference: Inference,
  from: { readonly sql: string; readonly whole: boolean },
  candidates: readonly TextCandidate[],
  verdicts: readonly Verdict[],
  next: (candidate: TextCandidate, verdict: Verdict, index: number) => readonly TextTest[] | null,
): Promise<Verdict[]> {
  const pending = candidates.flatMap((candidate, index) => {
    const tests = next(candidate, verdicts[index]!, index);
    return tests ? [{ index, candidate, tests }] : [];
  });
  const columns = pending.map(({ candidate, tests }) => ({ ...candidate, tests }));
  const { connection, tests, dialect } = inference;
  const counts = await countTests(connection, { sql: from.sql, table: from.whole }, columns, tests, dialect);
  const updated = [...verdicts];
  pending.forEach((p, k) => (updated[p.index] = { counts: counts[k]!, tests: p.tests, whole: from.whole }));
  return updated;
}

/** Needs a type that all but a few cells fit: no test fits every cell, and no JSON value nests. */
function wantsTolerance(verdict: Verdict): boolean {
  return verdict.counts.filled > 0 && verdict.counts.nested === 0 && !winnerOf(verdict);
}

/**
 * The tests a column without a winner may still have within MISFIT_SHARE of the table's cells:
 * those its sample missed at most that often, counted against the table's rows (a cell missing
 * in the sample misses in the table, and the table has at most `rows` filled cells), so no test
 * that fits the table is left out. A sample without values had every test run over the table.
 */
function nearExactly(sample: Verdict, verdict: Verdict, rows: number): TextTest[] | null {
  if (!wantsTolerance(verdict) || sample.counts.filled === 0) return null;
  const allowed = Math.floor(rows * MISFIT_SHARE);
  const near = sample.tests.filter(
    (test) => missesOf(sample, test) <= allowed && !(sample.counts.codes > 0 && NUMERIC.has(test.type)),
  );
  return near.length > 0 ? near : null;
}

/** The tests the sample nearly fits, counted over the table: the first all but 1% of its cells fit may win. */
function nearSampled(sample: Verdict, verdict: Verdict): TextTest[] | null {
  if (!wantsTolerance(verdict)) return null;
  const nearTests = fittingTests(sample.counts.filled > 0 ? sample : verdict, SAMPLE_MISFIT_SHARE);
  return nearTests.length > 0 ? nearTests : null;
}

/** Inference settings tests change. */
export interface InferenceSettings {
  /** Sample tables of SMALL_SAMPLE_FROM to SAMPLE_ROWS rows (default true); false tests their every row at once. */
  readonly smallSample?: boolean;
}

/** How a table is sampled: rows tested first, and whether the near tests are exact; null: every row at once. */
function samplingOf(rows: number, settings: InferenceSettings): { rows: number; exact: boolean } | null {
  if (rows > SAMPLE_ROWS) return { rows: SAMPLE_ROWS, exact: false };
  const small = rows >= SMALL_SAMPLE_FROM && settings.smallSample !== false;
  return small ? { rows: SMALL_SAMPLE_ROWS, exact: true } : null;
}

/**
 * Infers every candidate over `table` as `dialect` writes numbers and missing values; results
 * are in the candidates' order. A type every cell fits is found as if every cell were tested: a
 * test failing on a sampled cell fails on the table, so the table's winner is the sample's when
 * the table confirms it, else one of the tests after it. Failing that, the tests the sample
 * nearly fits are counted over the table, and the first that all but 1% of the cells fit wins;
 * up to SAMPLE_ROWS rows, "nearly" is every test that may still fit, so the types are those of
 * every test run on every row.
 */
export async function inferTextColumns(
  connection: DuckDBConnection,
  table: string,
  candidates: readonly TextCandidate[],
  dialect: TextDialect = DEFAULT_DIALECT,
  settings: InferenceSettings = {},
): Promise<InferredColumn[]> {
  const tests = textTests(dialect);
  if (candidates.length === 0) return [];
  const all = quoteIdentifier(table);
  const rows = Number((await connection.runAndReadAll(`SELECT count(*) FROM ${all}`)).getRows()[0]?.[0] ?? 0);
  const sampling = samplingOf(rows, settings);
  const from = sampling
    ? {
        sql: `(SELECT * FROM ${all} USING SAMPLE reservoir(${sampling.rows} ROWS) REPEATABLE (7))`,
        whole: false,
      }
    : { sql: all, whole: true };
  const everyRow = { sql: all, whole: true };
  const none = candidates.map((): Verdict => ({
    counts: { filled: 0, nested: 0, codes: 0, padded: 0, tokens: 0, passed: [], outside: [] },
    tests: [],
    whole: false,
  }));
  const inference: Inference = { connection, tests, dialect };
  const sample = await retest(inference, from, candidates, none, () => tests);
  let verdicts = sample;
  let nearly = sample;
  if (sampling) {
    const confirm = (c: TextCandidate, v: Verdict) => toConfirm(tests, c, v);
    verdicts = await retest(inference, everyRow, candidates, verdicts, confirm);
    const after = (_: TextCandidate, v: Verdict) => afterUnconfirmed(tests, v);
    verdicts = await retest(inference, everyRow, candidates, verdicts, after);
    const near = (_: TextCandidate, v: Verdict, i: number): TextTest[] | null =>
      sampling.exact ? nearExactly(sample[i]!, v, rows) : nearSampled(sample[i]!, v);
    nearly = await retest(inference, everyRow, candidates, verdicts, near);
  }
  return candidates.map((candidate, i) => {
    const verdict = verdicts[i]!;
    const exact = winnerOf(verdict);
    const tolerant = wantsTolerance(verdict) ? fittingTests(nearly[i]!, MISFIT_SHARE)[0] : undefined;
    const choice: Choice = exact
      ? { verdict, winner: exact }
      : tolerant
        ? { verdict: nearly[i]!, winner: tolerant, tolerant: true }
        : { verdict };
    return result(tests, candidate, choice, dialect);
  });
}
