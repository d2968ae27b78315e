// What an ingest could not store as the source wrote it: cells that missed their field's type,
// points off the globe, dates that read two ways. Counted by DuckDB in one aggregate query.
import { createReadStream } from 'node:fs';
import type { DuckDBConnection, Json } from '@duckdb/node-api';
import type { FieldType } from '../catalog/schema.js';
import { PLAN_RELATION, type PlannedColumn } from './plan.js';
import { readableFormat } from './text-tests.js';

/** Examples shown per problem. */
const EXAMPLES = 3;

/** A source value that could not be stored, and where it was: its record (1-based, file order). */
export interface ProblemExample {
  readonly record: number;
  readonly value: string;
}

export interface FieldProblem {
  readonly field: string;
  /** `misfit`: cells that are not of the field's type, stored as null; `point`: rows that got no point. */
  readonly kind: 'misfit' | 'point';
  readonly type: FieldType;
  readonly count: number;
  readonly examples: readonly ProblemExample[];
}

export interface IngestProblems {
  readonly fields: readonly FieldProblem[];
  /** Fields kept as text because each date reads both day-first and month-first. */
  readonly ambiguousDates: readonly { readonly field: string; readonly formats: readonly [string, string] }[];
}

/** A check over the planned rows: which rows have the problem and what to show of them. */
interface Check {
  readonly column: PlannedColumn;
  readonly kind: FieldProblem['kind'];
  readonly bad: string;
  readonly value: string;
}

function checksOf(column: PlannedColumn): Check[] {
  const checks: Check[] = [];
  if (column.misfits) {
    const { cell, fits } = column.misfits;
    checks.push({ column, kind: 'misfit', bad: `${cell} IS NOT NULL AND NOT (${fits})`, value: cell });
  }
  const coordinates = column.coordinates;
  if (coordinates && 'cell' in coordinates) {
    const { cell } = coordinates;
    checks.push({
      column,
      kind: 'point',
      bad: `(${column.sql}) IS NULL AND ${cell} IS NOT NULL`,
      value: cell,
    });
  } else if (coordinates) {
    const { lat, lon } = coordinates;
    const pair = `concat_ws(', ', coalesce(CAST(${lat} AS VARCHAR), '(none)'), coalesce(CAST(${lon} AS VARCHAR), '(none)'))`;
    checks.push({
      column,
      kind: 'point',
      bad: `(${column.sql}) IS NULL AND (${lat} IS NOT NULL OR ${lon} IS NOT NULL)`,
      value: pair,
    });
  }
  return checks;
}

/** Counts every problem of the planned columns in one scan of the source. */
export async function findProblems(
  connection: DuckDBConnection,
  columns: readonly PlannedColumn[],
): Promise<IngestProblems> {
  const checks = columns.flatMap(checksOf);
  const ambiguousDates = columns.flatMap((c) =>
    c.ambiguousDates ? [{ field: c.name, formats: c.ambiguousDates }] : [],
  );
  if (checks.length === 0) return { fields: [], ambiguousDates };
  const aggregates = checks.flatMap(({ bad, value }) => [
    `count_if(${bad})`,
    `min_by({'record': __ordinal + 1, 'value': CAST(${value} AS VARCHAR)}, __ordinal, ${EXAMPLES}) FILTER (WHERE ${bad})`,
  ]);
  const reader = await connection.runAndReadAll(`SELECT ${aggregates.join(', ')} FROM ${PLAN_RELATION}`);
  const row = reader.getRowsJson()[0] ?? [];
  const fields = checks.flatMap((check, i): FieldProblem[] => {
    const count = Number(row[2 * i] ?? 0);
    if (count === 0) return [];
    const examples = ((row[2 * i + 1] ?? []) as { record: Json; value: string }[]).map((e) => ({
      record: Number(e.record),
      value: e.value,
    }));
    return [{ field: check.column.name, kind: check.kind, type: check.column.type, count, examples }];
  });
  return { fields, ambiguousDates };
}

/** Is anything to report? (`--strict` fails when there is.) */
export function hasProblems(problems: IngestProblems): boolean {
  return problems.fields.length > 0 || problems.ambiguousDates.length > 0;
}

/**
 * Record n of a text source is line n + 1 when no value spans lines: true when the file has
 * exactly one line per record plus the header.
 */
export async function recordsAreLines(file: string, records: number): Promise<boolean> {
  let newlines = 0;
  let last = 0x0a;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, at + 1)) newlines++;
    if (chunk.length > 0) last = chunk[chunk.length - 1]!;
  }
  return newlines + (last === 0x0a ? 0 : 1) === records + 1;
}

const plural = (count: number, word: string): string =>
  `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;

/** The summary lines: one per problem, with where its first examples are (`line` when records are lines). */
export function describeProblems(problems: IngestProblems, lines: boolean): string[] {
  const where = (record: number): string => (lines ? `line ${record + 1}` : `record ${record}`);
  const examples = (list: readonly ProblemExample[]): string =>
    list.map((e) => `${JSON.stringify(e.value)} (${where(e.record)})`).join(', ');
  return [
    ...problems.fields.map((p) =>
      p.kind === 'misfit'
        ? `${p.field}: ${plural(p.count, 'value')} not ${p.type === 'int' ? 'an int' : `a ${p.type}`}, stored as null: ${examples(p.examples)}`
        : `${p.field}: ${plural(p.count, 'record')} without a point (latitude, longitude off the globe or not numbers): ${examples(p.examples)}`,
    ),
    ...problems.ambiguousDates.map(
      ({ field, formats }) =>
        `${field}: kept as text: every date reads as ${readableFormat(formats[0])} and as ${readableFormat(formats[1])}`,
    ),
  ];
}
