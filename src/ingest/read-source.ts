// A source file of any input format loaded into the `src` table: text transcoded to UTF-8 first,
// a workbook's sheet rewritten as CSV, a topology as GeoJSON.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { InputFormat } from './input-format.js';
import { loadSource, type SourceTable } from './load-source.js';
import type { IngestProgress } from './progress.js';
import { utf8Source, type TextEncoding } from './text-encoding.js';
import { topojsonToGeoJson } from './topojson-source.js';
import { xlsxToCsv, type SheetOptions } from './xlsx-source.js';

/** Formats read as delimited text, whose records may be numbered by line. */
export const TEXT_FORMATS: ReadonlySet<InputFormat> = new Set(['csv', 'tsv']);

export interface ReadContext {
  readonly connection: DuckDBConnection;
  readonly workDir: string;
  readonly format: InputFormat;
  readonly options: SheetOptions & { readonly file: string; readonly maxLineBytes?: number };
  /** The source as the user named it, for messages. */
  readonly name: string;
  readonly progress: Pick<IngestProgress, 'note'>;
}

export interface ReadSource {
  readonly source: SourceTable;
  /** The encoding a text source was read in, null for other formats. */
  readonly encoding: TextEncoding | null;
  /** The file DuckDB read. */
  readonly path: string;
  /** Problems of the reading itself (a sheet's totals row), reported with the values'. */
  readonly problems?: readonly string[];
}

/** Loads the source into `src`, converting what DuckDB does not read itself. */
export async function readSource(context: ReadContext): Promise<ReadSource> {
  const { connection, workDir, name, options } = context;
  const { file } = options;
  if (context.format === 'xlsx') {
    const sheet = await xlsxToCsv(file, workDir, name, options);
    if (sheet.headerRow > 1) context.progress.note(`the header is row ${sheet.headerRow} of the sheet`);
    const source = await loadSource(connection, sheet.path, 'csv', name);
    return { source, encoding: null, path: sheet.path, problems: sheet.problems };
  }
  if (context.format === 'topojson') {
    const geojson = await topojsonToGeoJson(file, workDir, name);
    return { source: await loadSource(connection, geojson, 'geojson', name), encoding: null, path: geojson };
  }
  const text = TEXT_FORMATS.has(context.format) ? await utf8Source(file, workDir) : null;
  const read = text?.path ?? file;
  const settings = options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes };
  const source = await loadSource(connection, read, context.format, name, settings);
  return { source, encoding: text?.encoding ?? null, path: read };
}
