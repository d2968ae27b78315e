// FlatGeobuf (streamed, no spatial index) and TomTom OV2 points, from typed cells and GeoJSON
// geometry text. flatgeobuf is loaded on the first FlatGeobuf export, as apache-arrow is for Arrow.
import type { generic } from 'flatgeobuf';
import type { HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js';
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js';
import type { Chunk } from '../engine/engine.js';
import type { ExportContext, Exporter } from './export-context.js';
import { cell } from '../odsql/index.js';
import { geometryColumn, linesOf } from './geometry.js';
import { reproject, type Geometry } from './projection.js';
import { streamQuery } from './query-stream.js';
import { typedSelect, type CellKind, type TypedCell } from './sql-cells.js';

/** The geometry column (geo formats are checked before writing) and the typed others. */
function geoSelect(context: ExportContext): { cells: TypedCell[]; sql: string } {
  const geometry = geometryColumn(context.columns)!;
  const others = context.columns.filter((c) => c !== geometry);
  return typedSelect(context, others, [cell.geometry(geometry, 'text')]);
}

/** FlatGeobuf: header (geometry type unknown: mixed allowed), then one feature per located row. */
async function writeFlatGeobuf(context: ExportContext) {
  const [{ generic }, { magicbytes }, { buildFeature }, { buildHeader }, { parseGeometry }] =
    await Promise.all([
      import('flatgeobuf'),
      import('flatgeobuf/lib/mjs/constants.js'),
      import('flatgeobuf/lib/mjs/generic/feature.js'),
      import('flatgeobuf/lib/mjs/generic/featurecollection.js'),
      import('flatgeobuf/lib/mjs/geojson/geometry.js'),
    ]);
  const FGB_TYPES: Record<CellKind, generic.ColumnType> = {
    int: generic.ColumnType.Long,
    double: generic.ColumnType.Double,
    bool: generic.ColumnType.Bool,
    // FlatGeobuf's one date type: ISO 8601 text.
    date: generic.ColumnType.DateTime,
    datetime: generic.ColumnType.DateTime,
    text: generic.ColumnType.String,
    list: generic.ColumnType.Json,
  };
  const { cells, sql } = geoSelect(context);
  const names = cells.map((c) => context.options.headers.get(c.column.key) ?? c.column.key);
  const columns: ColumnMeta[] = cells.map((c, i) => ({
    name: names[i]!,
    type: FGB_TYPES[c.kind],
    title: null,
    description: null,
    width: -1,
    precision: -1,
    scale: -1,
    nullable: true,
    unique: false,
    primary_key: false,
  }));
  const header: HeaderMeta = {
    geometryType: generic.GeometryType.Unknown,
    columns,
    envelope: null,
    featuresCount: 0,
    indexNodeSize: 0,
    crs: null,
    title: null,
    description: null,
    metadata: null,
  };
  const head = Buffer.concat([
    Buffer.from(magicbytes),
    Buffer.from(buildHeader(header, context.projection?.epsg ?? 4326)),
  ]);
  const encode = (chunk: Chunk): Buffer => {
    const geometries = chunk.values(0) as readonly (string | null)[];
    const values = cells.map((_, i) => chunk.values(i + 1));
    const features: Uint8Array[] = [];
    geometries.forEach((text, row) => {
      // A FlatGeobuf feature needs a geometry: rows without one are not written.
      if (text === null) return;
      // The stored text is a GeoJSON geometry; flatgeobuf's parameter is @types/geojson's union.
      const geometry = reproject(JSON.parse(text) as Geometry, context.projection) as Parameters<
        typeof parseGeometry
      >[0];
      const properties = Object.fromEntries(names.map((name, i) => [name, values[i]![row] as never]));
      features.push(buildFeature(parseGeometry(geometry), properties, header));
    });
    return Buffer.concat(features);
  };
  return streamQuery(context.engine, sql, encode, { head, tail: '' }, context.signal);
}

/** One OV2 point record: type 2, length, lon and lat in 1e-5 degrees, a zero-terminated name. */
function ov2Record(lon: number, lat: number, name: string): Buffer {
  const text = Buffer.from(name, 'utf8');
  const record = Buffer.alloc(13 + text.length + 1);
  record.writeUInt8(2, 0);
  record.writeInt32LE(record.length, 1);
  record.writeInt32LE(Math.round(lon * 1e5), 5);
  record.writeInt32LE(Math.round(lat * 1e5), 9);
  text.copy(record, 13);
  return record;
}

/** OV2: a point per located row (a shape's first point), named by name_field or the first text. */
function writeOv2(context: ExportContext) {
  const { cells, sql } = geoSelect(context);
  const wanted = context.gpx.nameField;
  const nameIndex = Math.max(
    cells.findIndex((c) => (wanted ? c.column.key === wanted : c.kind === 'text')),
    -1,
  );
  const encode = (chunk: Chunk): Buffer => {
    const geometries = chunk.values(0) as readonly (string | null)[];
    const names = nameIndex < 0 ? [] : (chunk.values(nameIndex + 1) as readonly (string | null)[]);
    const records: Buffer[] = [];
    geometries.forEach((text, row) => {
      const first = text === null ? undefined : linesOf(JSON.parse(text) as Geometry)[0]?.[0];
      if (first) records.push(ov2Record(first[0], first[1], names[row] ?? ''));
    });
    return Buffer.concat(records);
  };
  return streamQuery(context.engine, sql, encode, { head: '', tail: '' }, context.signal);
}

export const GEO_BINARY_FORMATS = {
  fgb: {
    contentType: 'application/octet-stream',
    extension: 'fgb',
    output: 'text',
    geo: true,
    write: writeFlatGeobuf,
  },
  ov2: {
    contentType: 'application/octet-stream',
    extension: 'ov2',
    output: 'text',
    geo: true,
    write: writeOv2,
  },
} satisfies Record<string, Exporter>;
