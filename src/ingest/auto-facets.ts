// Automatic facets: a dataset ingested without `--facet` gets the fields a reader would filter on
// (text with few distinct values, dates) annotated as facets, and listed in
// `computed.auto_facets` so the next ingest recomputes them instead of keeping them as given.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DatasetFile, Field } from '../catalog/schema.js';
import { quoteIdentifier, quoteString } from '../sql/quoting.js';
import type { ComputedFacts } from './computed.js';
import type { FieldSettings } from './dataset-file.js';

/** The bounds of docs/ingest.md, Automatic facets. */
export const AUTO_FACET_RULES = {
  /** A text field with at most this many distinct values is a facet (at any row count)... */
  maxDistinct: 50,
  /** ...or with at most this share of the rows (origin of 3M flights: 229 values, 0.008%). */
  maxShare: 0.05,
  /** Longer values on average are free text (descriptions, comments), not categories. */
  maxAverageLength: 50,
  /** Facets a dataset gets at most, in field order: a sidebar of 30 lists is read by no one. */
  maxFacets: 10,
} as const;

/** Names of identifiers: never a facet, even when they repeat (an order's customer_id). */
const ID_NAME = /(^|_)(id|uuid|guid)$/;

/** What the rule reads of a text field: its non-null values, distinct values and average length. */
interface TextMeasure {
  readonly values: number;
  readonly distinct: number;
  readonly averageLength: number;
}

const isDate = (field: Field): boolean => field.type === 'date' || field.type === 'datetime';

/** Fields that may become facets before measuring: text or dates, never ids. */
function candidates(fields: readonly Field[]): Field[] {
  return fields.filter(
    (f) =>
      (f.type === 'text' || isDate(f)) &&
      f.annotations.id === undefined &&
      !ID_NAME.test(f.name) &&
      !(isDate(f) && f.annotations.multivalued !== undefined),
  );
}

/**
 * The measures of some text fields in one scan of the file: a list's elements for a multivalued
 * one. A distinct count `known` already (computeFacts counts every single-valued field's) is not
 * counted again: 60 text fields of 20,000 rows took 1.4 s more.
 */
async function measureTexts(
  connection: DuckDBConnection,
  dataPath: string,
  fields: readonly Field[],
  known: Readonly<Record<string, number>>,
): Promise<Map<string, TextMeasure>> {
  const measures = new Map<string, TextMeasure>();
  const single = fields.filter((f) => f.annotations.multivalued === undefined);
  const lists = fields.filter((f) => f.annotations.multivalued !== undefined);
  const file = `read_parquet(${quoteString(dataPath)})`;
  const scans = [
    ...(single.length > 0 ? [{ fields: single, from: file, value: quoteIdentifier }] : []),
    // One scan a list: unnested, its elements are the values.
    ...lists.map((f) => ({
      fields: [f],
      from: `(SELECT unnest(${quoteIdentifier(f.name)}) AS v FROM ${file})`,
      value: () => 'v',
    })),
  ];
  for (const scan of scans) {
    const single = scan.from === file;
    const columns = scan.fields.map((f) => {
      const v = scan.value(f.name);
      const distinct = single && Object.hasOwn(known, f.name) ? 'NULL' : `count(DISTINCT ${v})`;
      return `count(${v}), ${distinct}, coalesce(avg(length(${v})), 0)`;
    });
    const row = (
      await connection.runAndReadAll(`SELECT ${columns.join(', ')} FROM ${scan.from}`)
    ).getRowsJson()[0];
    scan.fields.forEach((f, i) => {
      const [values, counted, length] = (row ?? []).slice(3 * i, 3 * i + 3).map(Number);
      const distinct = single && Object.hasOwn(known, f.name) ? known[f.name] : counted;
      measures.set(f.name, { values: values ?? 0, distinct: distinct ?? 0, averageLength: length ?? 0 });
    });
  }
  return measures;
}

/** Whether a measured text field reads as a category: few distinct values, at least one repeat, short values. */
export function isCategory(measure: TextMeasure, rows: number): boolean {
  const { maxDistinct, maxShare, maxAverageLength } = AUTO_FACET_RULES;
  const few = measure.distinct <= maxDistinct || measure.distinct <= rows * maxShare;
  return (
    few &&
    measure.distinct >= 2 &&
    measure.distinct < measure.values &&
    measure.averageLength <= maxAverageLength
  );
}

/**
 * The fields of data.parquet at `dataPath` that become facets, in field order, at most
 * AUTO_FACET_RULES.maxFacets: categories among text fields, dates with two days or more.
 */
export async function chooseAutoFacets(
  connection: DuckDBConnection,
  dataPath: string,
  fields: readonly Field[],
  facts: Pick<ComputedFacts, 'records_count' | 'distinct_counts'>,
): Promise<string[]> {
  const fieldsOf = candidates(fields);
  const texts = await measureTexts(
    connection,
    dataPath,
    fieldsOf.filter((f) => !isDate(f)),
    facts.distinct_counts,
  );
  const chosen = fieldsOf.filter((field) => {
    const text = texts.get(field.name);
    return text ? isCategory(text, facts.records_count) : (facts.distinct_counts[field.name] ?? 0) >= 2;
  });
  return chosen.slice(0, AUTO_FACET_RULES.maxFacets).map((f) => f.name);
}

/**
 * The previous version without its automatic facets (they are recomputed, or dropped when facets
 * are given or `--no-auto-facets` says so), so that only facets a publisher gave are kept.
 */
export function withoutAutoFacets(previous: DatasetFile | null): DatasetFile | null {
  const automatic = new Set(previous?.computed.auto_facets ?? []);
  if (!previous || automatic.size === 0) return previous;
  const fields = previous.fields.map((field) => {
    if (!automatic.has(field.name)) return field;
    const annotations = Object.fromEntries(
      Object.entries(field.annotations).filter(([name]) => name !== 'facet'),
    );
    return { ...field, annotations };
  });
  return { ...previous, fields, computed: { ...previous.computed, auto_facets: [] } };
}

/** What an ingest was given about facets. */
export interface FacetOptions {
  readonly facets?: readonly string[];
  readonly fields?: Readonly<Record<string, FieldSettings>>;
  readonly autoFacets?: boolean;
}

/**
 * Whether ingest chooses the facets: not with `--facet`, `--no-auto-facets`, a facet annotation
 * in the field settings, or a facet the previous version was given on a field still there.
 */
export function autoFacetsWanted(
  options: FacetOptions,
  previous: DatasetFile | null,
  fields: readonly Field[],
): boolean {
  const names = new Set(fields.map((f) => f.name));
  const given =
    (options.facets?.length ?? 0) > 0 ||
    Object.values(options.fields ?? {}).some((s) => s.annotations?.facet !== undefined) ||
    (previous?.fields ?? []).some((f) => names.has(f.name) && f.annotations.facet !== undefined);
  return !given && options.autoFacets !== false;
}
