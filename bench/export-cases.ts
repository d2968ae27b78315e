// The export cases of the bench and their baselines: for each, the DuckDB SQL a person would write
// for the same bytes (same datetime text, number formatting, delimiter), COPY'd to a file.
/**
 * The baseline of an export: the SQL a person would write in DuckDB for the same bytes, COPY'd to
 * a file, and what the server writes around DuckDB's output (a CSV's BOM, GeoJSON's head).
 */
export interface Baseline {
  /** The SELECT; `{table}` stands for the dataset's view in the raw DuckDB. */
  readonly select: string;
  readonly options: string;
  readonly head?: string;
  readonly tail?: string;
  /** The download is the same bytes as head + COPY + tail (JS-written formats: not, shown for scale). */
  readonly same: boolean;
}

/** One export timed: the format over HTTP and the COPY of its baseline. */
export interface ExportCase {
  readonly format: string;
  readonly dataset: string;
  readonly baseline: Baseline;
  /** The target ratio of the exports issue, where it sets one. */
  readonly target?: number;
  /** Written by duckportal's JavaScript, not by DuckDB (no target: shown for scale). */
  readonly js?: boolean;
  /** Timed runs, when not the bench's (the 30M-row exports: 5). */
  readonly runs?: number;
}

/**
 * A datetime as duckportal writes it in UTC (ISO 8601 with its offset), the fastest way measured:
 * DuckDB's strftime on the UTC wall clock took 0.8-1.2 s of CPU over the 3M flights, its
 * strftime on the TIMESTAMPTZ (ICU) 1.9-2.2 s, and on a cast to TIMESTAMP more again.
 */
const ISO_UTC = (column: string): string =>
  `strftime(make_timestamp(epoch_us(${column})), '%Y-%m-%dT%H:%M:%S+00:00')`;

const FLIGHTS_TEXT = `SELECT ${ISO_UTC('date')} AS date, delay, distance, origin, destination FROM {table}`;
const FLIGHTS_NATIVE = 'SELECT date, delay, distance, origin, destination FROM {table}';
/** The export's defaults: keys as headers, ';', a BOM. */
const CSV: Baseline = {
  select: FLIGHTS_TEXT,
  options: "FORMAT csv, HEADER true, DELIMITER ';'",
  head: '\uFEFF',
  same: true,
};
const PARQUET: Baseline = {
  select: FLIGHTS_NATIVE,
  options: 'FORMAT parquet, COMPRESSION snappy',
  same: true,
};
const AIRPORTS = 'iata, name, city, state, country, latitude, longitude, location';
/** airports1m's fields: the copies carry no hierarchical `location`. */
const AIRPORTS_1M = 'iata, name, city, state, country, latitude, longitude';
const SCALE_JSON: Baseline = {
  select: `SELECT ${AIRPORTS}, geo_point_2d FROM {table}`,
  options: 'FORMAT json, ARRAY true',
  same: false,
};

/** The 30M-row exports, there for the server's memory: on a server started for them, 5 runs. */
export const MEMORY_CASES: readonly ExportCase[] = [
  { format: 'csv', dataset: 'flights30m', baseline: CSV, target: 1.1, runs: 5 },
  { format: 'parquet', dataset: 'flights30m', baseline: PARQUET, target: 1.1, runs: 5 },
];

export const EXPORT_CASES: readonly ExportCase[] = [
  { format: 'csv', dataset: 'flights', baseline: CSV, target: 1.1 },
  { format: 'parquet', dataset: 'flights', baseline: PARQUET, target: 1.1 },
  {
    format: 'json',
    dataset: 'flights',
    baseline: { select: FLIGHTS_TEXT, options: 'FORMAT json, ARRAY true', same: true },
    target: 1.3,
  },
  {
    format: 'jsonl',
    dataset: 'flights',
    baseline: { select: FLIGHTS_TEXT, options: 'FORMAT json', same: true },
    target: 1.3,
  },
  {
    format: 'geojson',
    dataset: 'airports1m',
    baseline: {
      select: `SELECT 'Feature' AS type,
        {'type': 'Point', 'coordinates': [geo_point_2d.lon, geo_point_2d.lat]} AS geometry,
        {${AIRPORTS_1M.split(', ')
          .map((c) => `'${c}': ${c}`)
          .join(', ')}} AS properties
        FROM {table}`,
      options: 'FORMAT json, ARRAY true',
      head: '{"type":"FeatureCollection","features":',
      tail: '}\n',
      same: true,
    },
    target: 1.5,
  },
  // Arrow has no COPY writer: Parquet, the nearest columnar file, is the baseline.
  { format: 'arrow', dataset: 'flights', baseline: { ...PARQUET, same: false }, js: true, runs: 3 },
  { format: 'turtle', dataset: 'airports', baseline: SCALE_JSON, js: true },
  {
    format: 'xlsx',
    dataset: 'airports',
    baseline: { ...SCALE_JSON, options: "FORMAT csv, HEADER true, DELIMITER ';'" },
    js: true,
  },
  { format: 'shp', dataset: 'airports', baseline: SCALE_JSON, js: true },
  { format: 'kml', dataset: 'airports', baseline: SCALE_JSON, js: true },
];
