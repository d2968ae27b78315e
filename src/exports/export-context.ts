// What every export writer receives, the registry entry each format provides, and the export
// checked against its format's needs that the API sends.
import type { Readable } from 'node:stream';
import type { Engine } from '../engine/engine.js';
import type { CompiledQuery, Output, OutputColumn } from '../odsql/index.js';
import type { ExportOptions } from './native-formats.js';
import type { Projection } from './projection.js';

/** GPX-only options (explore-api.md: name_field, description_field_list, use_extension). */
export interface GpxOptions {
  readonly nameField: string | null;
  readonly descriptionFields: readonly string[];
  readonly useExtension: boolean;
}

/** One export being written: the compiled rows and the request's options. */
export interface ExportContext {
  readonly engine: Engine;
  /** File name stem and the namespace of RDF properties. */
  readonly name: string;
  /** The absolute URL of the source read through (`<api>/catalog`, `<api>/monitoring`): RDF and links name datasets under it. */
  readonly sourceUrl: string;
  /** The compiled query, which writers shape (src/odsql/shape.ts), and its output columns. */
  readonly query: CompiledQuery;
  readonly columns: readonly OutputColumn[];
  /** The rows end with the record id column `_recordid` (ungrouped rows, for a format that asks). */
  readonly recordIds: boolean;
  readonly options: ExportOptions;
  readonly projection: Projection | null;
  readonly gpx: GpxOptions;
  readonly signal: AbortSignal;
}

/** A format of the registry: how it is announced, what it needs, and its writer. */
export interface Exporter {
  readonly contentType: string;
  readonly extension: string;
  /** Value shapes the writer wants from the compiler. */
  readonly output: Output;
  /** Writes geometries: refused without a geo column. */
  readonly geo: boolean;
  /** Wants each row's record id (for the RDF formats' record IRIs). */
  readonly recordIds?: boolean;
  /** Most data rows the format can hold (XLSX): more is a 400 before the first byte. */
  readonly maxRows?: number;
  /** The body; settles at the first byte so that errors until then are JSON answers. */
  write(context: ExportContext): Promise<Readable>;
}

/** An export checked against its format's needs: what the response announces, and its writer. */
export interface PreparedExport {
  /** File name stem. */
  readonly name: string;
  readonly extension: string;
  readonly contentType: string;
  /** Memory the query's holistic aggregations may hold while it is written, reserved on its engine. */
  readonly memory: { readonly engine: Engine; readonly bytes: number } | null;
  /** The body; settles at the first byte so that errors until then are JSON answers. */
  write(): Promise<Readable>;
}
