// Field types of text columns: a type wins when every non-empty cell passes its test.
// Tests run on a sample first; the full table only confirms the sample's choice, one test per column.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FieldType } from '../catalog/schema.js';
import { quoteIdentifier } from '../sql-text.js';
import { cellSql, DEFAULT_DIALECT, textTests, type TextDialect, type TextTest } from './text-tests.js';

/** A column to infer: `text` is a SQL expression giving its cells as VARCHAR. */
export interface TextCandidate {
  readonly text: string;
  /** JSON-typed columns only: the column itself, stored as JSON text if any value is an object or array. */
  readonly json?: string;
}

/** The field type chosen for a candidate and the SQL expression that converts its cells. */
export interface InferredColumn {
  readonly type: FieldType;
  readonly sql: string;
}

/** Rows tested in full before the whole table is touched (fixed seed: the same file samples the same rows). */
const SAMPLE_ROWS = 20_000;

/** Counts over one relation for one candidate: non-empty cells, nested JSON values, cells passing each test. */
interface Counts {
  readonly filled: number;
  readonly nested: number;
  readonly passed: readonly number[];
}

interface Probe {
  readonly candidate: TextCandidate;
  readonly tests: readonly TextTest[];
}

/** Runs every probe's tests over `from` in one scan. */
async function count(
  connection: DuckDBConnection,
  from: string,
  probes: readonly Probe[],
  dialect: TextDialect,
): Promise<Counts[]> {
  if (probes.length === 0) return [];
  const cells = probes.map((p, i) => `${cellSql(p.candidate.text, dialect)} AS ${quoteIdentifier(`v${i}`)}`);
  const aggregates = probes.flatMap(({ candidate, tests }, i) => {
    const v = quoteIdentifier(`v${i}`);
    const nested = candidate.json ? `count_if(json_type(${candidate.json}) IN ('OBJECT', 'ARRAY'))` : '0';
    return [`count(${v})`, nested, ...tests.map((t) => `count_if(${t.test(v)})`)];
  });
  const reader = await connection.runAndReadAll(
    `SELECT ${aggregates.join(', ')} FROM (SELECT *, ${cells.join(', ')} FROM ${from})`,
  );
  const row = (reader.getRows()[0] ?? []).map((value) => Number(value));
  let offset = 0;
  return probes.map(({ tests }) => {
    const [filled = 0, nested = 0, ...passed] = row.slice(offset, (offset += 2 + tests.length));
    return { filled, nested, passed };
  });
}

/** Counts of a candidate and the tests they are for. */
interface Verdict {
  readonly counts: Counts;
  readonly tests: readonly TextTest[];
}

/** The first of the tests that every non-empty cell passed; undefined when none did or nothing was filled. */
function winnerOf({ counts, tests }: Verdict): TextTest | undefined {
  return counts.filled > 0 ? tests.find((_, i) => counts.passed[i] === counts.filled) : undefined;
}

function result(candidate: TextCandidate, verdict: Verdict, dialect: TextDialect): InferredColumn {
  if (verdict.counts.nested > 0 && candidate.json) {
    return { type: 'json_blob', sql: `CAST(${candidate.json} AS VARCHAR)` };
  }
  const winner = winnerOf(verdict);
  if (!winner) return { type: 'text', sql: `nullif(${candidate.text}, '')` };
  return { type: winner.type, sql: winner.convert(cellSql(candidate.text, dialect)) };
}

/**
 * What the whole table must test after the sample: the sample's winner alone; every test if
 * the sample held no value; only the nested count for JSON text; nothing when the sample
 * already proves the result (a nested value, or text because every test failed somewhere).
 */
function toConfirm(
  all: readonly TextTest[],
  candidate: TextCandidate,
  verdict: Verdict,
): readonly TextTest[] | null {
  if (verdict.counts.nested > 0) return null;
  if (verdict.counts.filled === 0) return all;
  const winner = winnerOf(verdict);
  if (winner) return [winner];
  return candidate.json ? [] : null;
}

/** After a winner the table did not confirm: the tests after it (those before it failed on the sample). */
function afterUnconfirmed(all: readonly TextTest[], verdict: Verdict): readonly TextTest[] | null {
  const [tested] = verdict.tests;
  if (verdict.tests.length !== 1 || !tested || verdict.counts.nested > 0 || winnerOf(verdict)) return null;
  return all.slice(all.indexOf(tested) + 1);
}

/** Runs, over `from`, the tests `next` asks for; other verdicts stay as they were. */
async function retest(
  connection: DuckDBConnection,
  from: string,
  candidates: readonly TextCandidate[],
  verdicts: readonly Verdict[],
  next: (candidate: TextCandidate, verdict: Verdict) => readonly TextTest[] | null,
  dialect: TextDialect,
): Promise<Verdict[]> {
  const pending = candidates.flatMap((candidate, index) => {
    const tests = next(candidate, verdicts[index]!);
    return tests ? [{ index, candidate, tests }] : [];
  });
  const counts = await count(connection, from, pending, dialect);
  const updated = [...verdicts];
  pending.forEach((p, k) => (updated[p.index] = { counts: counts[k]!, tests: p.tests }));
  return updated;
}

/**
 * Infers every candidate over `table` as `dialect` writes numbers and missing values; results
 * are in the candidates' order, and equal to testing every cell: a test that fails on a sampled
 * cell fails on the table, so the table's winner is the sample's when the table confirms it,
 * else one of the tests after it.
 */
export async function inferTextColumns(
  connection: DuckDBConnection,
  table: string,
  candidates: readonly TextCandidate[],
  dialect: TextDialect = DEFAULT_DIALECT,
): Promise<InferredColumn[]> {
  const tests = textTests(dialect);
  if (candidates.length === 0) return [];
  const all = quoteIdentifier(table);
  const rows = Number((await connection.runAndReadAll(`SELECT count(*) FROM ${all}`)).getRows()[0]?.[0] ?? 0);
  const sampled = rows > SAMPLE_ROWS;
  const from = sampled
    ? `(SELECT * FROM ${all} USING SAMPLE reservoir(${SAMPLE_ROWS} ROWS) REPEATABLE (7))`
    : all;
  const none = candidates.map((): Verdict => ({ counts: { filled: 0, nested: 0, passed: [] }, tests: [] }));
  let verdicts = await retest(connection, from, candidates, none, () => tests, dialect);
  if (sampled) {
    const confirm = (c: TextCandidate, v: Verdict) => toConfirm(tests, c, v);
    verdicts = await retest(connection, all, candidates, verdicts, confirm, dialect);
    const after = (_: TextCandidate, v: Verdict) => afterUnconfirmed(tests, v);
    verdicts = await retest(connection, all, candidates, verdicts, after, dialect);
  }
  return candidates.map((candidate, i) => result(candidate, verdicts[i]!, dialect));
}
