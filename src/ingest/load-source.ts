// Reads a source file of any input format into one DuckDB table, `src`, with columns c0..cN in file order.
import { stat } from 'node:fs/promises';
import type { DuckDBConnection, DuckDBType } from '@duckdb/node-api';
import { quoteIdentifier, quoteString } from '../sql/quoting.js';
import { readCsvHeader } from './csv-header.js';
import type { ReadableFormat } from './input-format.js';
import { describeSourceError } from './source-errors.js';

/** The table every source is loaded into, in ingest's private DuckDB. */
export const SOURCE_TABLE = 'src';

/** GeoJSON only: each feature's geometry as GeoJSON text, and its `id` member. */
const GEOMETRY_COLUMN = '__duckportal_geometry';
const FEATURE_ID_COLUMN = '__duckportal_feature_id';

export interface SourceColumn {
  /** Column name in the `src` table (c0, c1, ...). */
  readonly column: string;
  /** The header or key as written in the source. */
  readonly label: string;
  readonly type: DuckDBType;
}

export interface SourceTable {
  readonly columns: readonly SourceColumn[];
  /** Text from CSV and JSON carries no type: it is inferred. Parquet text stays text. */
  readonly untypedText: boolean;
  /** The column of GeoJSON geometries, or null for other formats. */
  readonly geometryColumn: string | null;
  readonly rowCount: number;
  /** The delimiter of a CSV or TSV source (it decides how numbers are written), null for others. */
  readonly delimiter: string | null;
}

interface ReaderResult {
  /** Labels for c0..cN when the reader named the columns itself (CSV); else the table's names. */
  readonly labels?: readonly string[];
  readonly delimiter?: string;
}

/** Reader settings tests change. */
export interface ReaderSettings {
  /** The longest line a CSV or TSV may hold, in bytes (default: DuckDB's, 2 MiB). */
  readonly maxLineBytes?: number;
}

/** Reads `file` into the source table; `displayName` is the file as the user named it, for messages. */
type Reader = (
  connection: DuckDBConnection,
  file: string,
  displayName: string,
  settings: ReaderSettings,
) => Promise<ReaderResult>;

async function readDelimited(
  connection: DuckDBConnection,
  file: string,
  displayName: string,
  settings: ReaderSettings,
  delimiter?: string,
): Promise<ReaderResult> {
  const header = await readCsvHeader(file, displayName, delimiter);
  const columns = header.labels.map((_, i) => `${quoteString(`c${i}`)}: 'VARCHAR'`).join(', ');
  const maxLine = settings.maxLineBytes === undefined ? '' : `, max_line_size = ${settings.maxLineBytes}`;
  // No sniffing: the dialect is fixed, so a ragged row is an error instead of a different guess.
  await connection.run(`CREATE TABLE ${SOURCE_TABLE} AS SELECT * FROM read_csv(${quoteString(file)},
    auto_detect = false, header = true, columns = {${columns}}, delim = ${quoteString(header.delimiter)},
    quote = '"', escape = '"', strict_mode = true, null_padding = false${maxLine})`);
  return { labels: header.labels, delimiter: header.delimiter };
}

function jsonReader(format: 'array' | 'newline_delimited'): Reader {
  return async (connection, file) => {
    await connection.run(`CREATE TABLE ${SOURCE_TABLE} AS SELECT * FROM read_json(${quoteString(file)},
      format = ${quoteString(format)}, records = true, sample_size = -1, map_inference_threshold = -1,
      maximum_object_size = 1073741824)`);
    return {};
  };
}

async function readGeoJson(
  connection: DuckDBConnection,
  file: string,
  displayName: string,
): Promise<ReaderResult> {
  const { size } = await stat(file);
  await connection.run(`CREATE TEMP TABLE collection AS SELECT json AS document
    FROM read_json_objects(${quoteString(file)}, format = 'unstructured', maximum_object_size = ${size + 1})`);
  const kind = await connection.runAndReadAll(
    `SELECT document->>'type', json_type(document->'features') FROM collection`,
  );
  const [type, featuresType] = kind.getRowsJson()[0] ?? [];
  if (type !== 'FeatureCollection' || featuresType !== 'ARRAY') {
    throw new Error(
      `${displayName}: not a GeoJSON FeatureCollection (top-level "type" is ${JSON.stringify(type ?? null)})`,
    );
  }
  await connection.run(`CREATE TEMP TABLE features AS
    SELECT unnest(from_json(document->'features', '["JSON"]')) AS feature FROM collection`);
  const facts = await connection.runAndReadAll(
    `SELECT CAST(json_group_structure(feature->'properties') AS VARCHAR), count(feature->'id') FROM features`,
  );
  const [structure, withId] = facts.getRowsJson()[0] ?? [];
  const properties =
    typeof structure === 'string' && structure.startsWith('{') && structure !== '{}'
      ? [`unnest(json_transform(feature->'properties', ${quoteString(structure)}))`]
      : [];
  const featureId = Number(withId) > 0 ? [`feature->>'id' AS ${FEATURE_ID_COLUMN}`] : [];
  const geometry = `nullif(CAST(feature->'geometry' AS VARCHAR), 'null') AS ${GEOMETRY_COLUMN}`;
  await connection.run(
    `CREATE TABLE ${SOURCE_TABLE} AS SELECT ${[geometry, ...featureId, ...properties].join(', ')} FROM features`,
  );
  await connection.run('DROP TABLE features; DROP TABLE collection');
  return {};
}

const READERS: Record<ReadableFormat, Reader> = {
  csv: (connection, file, displayName, settings) => readDelimited(connection, file, displayName, settings),
  tsv: (connection, file, displayName, settings) =>
    readDelimited(connection, file, displayName, settings, '\t'),
  json: jsonReader('array'),
  jsonl: jsonReader('newline_delimited'),
  geojson: readGeoJson,
  parquet: async (connection, file) => {
    await connection.run(`CREATE TABLE ${SOURCE_TABLE} AS SELECT * FROM read_parquet(${quoteString(file)})`);
    return {};
  },
};

/** Loads `file` (UTF-8 already) into `src`; `displayName` is the file named in error messages. */
export async function loadSource(
  connection: DuckDBConnection,
  file: string,
  format: ReadableFormat,
  displayName: string,
  settings: ReaderSettings = {},
): Promise<SourceTable> {
  let result: ReaderResult;
  try {
    result = await READERS[format](connection, file, displayName, settings);
  } catch (error) {
    throw await describeSourceError(error, displayName, format, file);
  }
  return describeTable(connection, format, result);
}

async function describeTable(
  connection: DuckDBConnection,
  format: ReadableFormat,
  result: ReaderResult,
): Promise<SourceTable> {
  const reader = await connection.runAndReadAll(`SELECT * FROM ${SOURCE_TABLE} LIMIT 0`);
  const names = reader.columnNames();
  const types = reader.columnTypes();
  const sourceIndexes = [...names.keys()].filter((i) => names[i] !== GEOMETRY_COLUMN);
  const columns = sourceIndexes.map((i, position): SourceColumn => ({
    column: `c${position}`,
    label: names[i] === FEATURE_ID_COLUMN ? 'id' : (result.labels?.[i] ?? names[i]!),
    type: types[i]!,
  }));
  await renameColumns(
    connection,
    sourceIndexes.map((i) => names[i]!),
    columns.map((c) => c.column),
  );
  const count = await connection.runAndReadAll(`SELECT count(*) FROM ${SOURCE_TABLE}`);
  return {
    columns,
    untypedText: format !== 'parquet',
    geometryColumn: names.includes(GEOMETRY_COLUMN) ? GEOMETRY_COLUMN : null,
    rowCount: Number(count.getRows()[0]?.[0] ?? 0),
    delimiter: result.delimiter ?? null,
  };
}

/** Renames in two steps, so that a source column already called `c1` cannot collide. */
async function renameColumns(
  connection: DuckDBConnection,
  from: readonly string[],
  to: readonly string[],
): Promise<void> {
  const alter = (a: string, b: string): string =>
    `ALTER TABLE ${SOURCE_TABLE} RENAME COLUMN ${quoteIdentifier(a)} TO ${quoteIdentifier(b)};`;
  if (from.every((name, i) => name === to[i])) return;
  const temporary = to.map((name) => `__duckportal_${name}`);
  const renames = [
    ...from.map((name, i) => [name, temporary[i]!]),
    ...temporary.map((name, i) => [name, to[i]!]),
  ];
  const statements = renames.filter(([a, b]) => a !== b).map(([a, b]) => alter(a!, b!));
  if (statements.length > 0) await connection.run(statements.join('\n'));
}
