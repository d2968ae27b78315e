// GeoJSON, KML and GPX: rows formatted in SQL, geometries turned into each form by JS only
// where DuckDB cannot (reprojection, KML/GPX geometry elements).
import type { Chunk } from '../engine/engine.js';
import { cell, shapedSql, type Cell, type OutputColumn } from '../odsql/index.js';
import type { ExportContext, Exporter } from './export-context.js';
import { geometryColumn, gpxElement, kmlGeometry } from './geometry.js';
import { reproject, type Geometry } from './projection.js';
import { xmlName, xmlText } from './sql-cells.js';
import { streamQuery } from './query-stream.js';

/** The geometry column and the others (the properties) of an export. */
function split(context: ExportContext): { geometry: OutputColumn; others: OutputColumn[] } {
  const geometry = geometryColumn(context.columns);
  if (!geometry) throw new Error('a geo export reached its writer without a geo column');
  return { geometry, others: context.columns.filter((c) => c !== geometry) };
}

const label = (context: ExportContext, column: OutputColumn): string =>
  context.options.headers.get(column.key) ?? column.key;

/** The properties keyed by name or label, as a JSON object or a struct. */
const properties = (context: ExportContext, others: OutputColumn[], form: 'json' | 'struct'): Cell =>
  cell.object(
    form,
    others.map((c) => [label(context, c), cell.value(c)]),
  );

/**
 * The properties for DuckDB's JSON writer: a STRUCT, which it writes as fast as plain columns and
 * faster than json_object (bench/README.md, Measurements behind the code), unless
 * two keys differ only in case (one STRUCT field to DuckDB) or there is no key at all.
 */
function propertiesStruct(context: ExportContext, others: OutputColumn[]): Cell {
  const keys = others.map((c) => label(context, c));
  const distinct = new Set(keys.map((k) => k.toLowerCase())).size === keys.length;
  return properties(context, others, keys.length === 0 || !distinct || keys.includes('') ? 'json' : 'struct');
}

/** Streams rows of (geometry GeoJSON text, formatted body) through `format`, one string per row. */
function featureRows(
  context: ExportContext,
  body: Cell,
  format: (geometry: Geometry | null, body: string) => string,
  head: string,
  tail: string,
  separator = '\n',
) {
  const { geometry } = split(context);
  const sql = shapedSql(context.query, [
    { name: 'g', cell: cell.geometry(geometry, 'text') },
    { name: 'b', cell: body },
  ]);
  const encode = (chunk: Chunk, first: boolean): string => {
    const geometries = chunk.values(0) as readonly (string | null)[];
    const bodies = chunk.values(1) as readonly (string | null)[];
    const rows: string[] = [];
    geometries.forEach((text, i) => {
      const parsed = text === null ? null : reproject(JSON.parse(text) as Geometry, context.projection);
      const row = format(parsed, bodies[i] ?? '');
      if (row) rows.push(row);
    });
    const joined = rows.join(separator);
    return first || joined === '' ? joined : separator + joined;
  };
  return streamQuery(context.engine, sql, encode, { head, tail }, context.signal);
}

const GEOJSON_HEAD = '{"type":"FeatureCollection","features":';

/** GeoJSON: DuckDB's JSON writer, unless coordinates must be reprojected in JS. */
async function writeGeojson(context: ExportContext) {
  const { geometry, others } = split(context);
  if (context.projection?.forward) {
    const crs = `{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::${context.projection.epsg}"}}`;
    return featureRows(
      context,
      cell.jsonText(properties(context, others, 'json')),
      (g, body) => `{"type":"Feature","geometry":${JSON.stringify(g)},"properties":${body}}`,
      `{"type":"FeatureCollection","crs":${crs},"features":[\n`,
      '\n]}\n',
      ',\n',
    );
  }
  const select = shapedSql(context.query, [
    { name: 'type', cell: cell.literal('Feature') },
    { name: 'geometry', cell: cell.geometry(geometry, 'nested') },
    { name: 'properties', cell: propertiesStruct(context, others) },
  ]);
  return context.engine.copyToStream(select, { format: 'json', array: true }, context.signal, {
    head: GEOJSON_HEAD,
    tail: '}\n',
  });
}

const EMPTY = cell.literal('');

/** A column's value as XML text, '' when null. */
const xmlValue = (context: ExportContext, c: OutputColumn): Cell =>
  cell.xml(cell.text(c, context.options.listSeparator));

/** `inner` between two literal texts, '' when it is null. */
const element = (open: string, inner: Cell, close: string): Cell =>
  cell.coalesce(cell.concat(cell.literal(open), inner, cell.literal(close)), EMPTY);

/** KML ExtendedData of the properties (names as written, values XML-escaped). */
function kmlBody(context: ExportContext, others: OutputColumn[]): Cell {
  const data = others.map((c) =>
    cell.concat(
      cell.literal(`<Data name="${xmlText(label(context, c))}"><value>`),
      cell.coalesce(xmlValue(context, c), EMPTY),
      cell.literal('</value></Data>'),
    ),
  );
  if (data.length === 0) return EMPTY;
  return cell.concat(cell.literal('<ExtendedData>'), ...data, cell.literal('</ExtendedData>'));
}

/** GPX name, description and extensions of a row. */
function gpxBody(context: ExportContext, others: OutputColumn[]): Cell {
  const byKey = new Map(others.map((c) => [c.key, c]));
  const parts: Cell[] = [];
  const nameColumn = context.gpx.nameField ? byKey.get(context.gpx.nameField) : undefined;
  if (nameColumn) parts.push(element('<name>', xmlValue(context, nameColumn), '</name>'));
  const listed = context.gpx.descriptionFields.flatMap((f) => byKey.get(f) ?? []);
  // Without extensions, the description carries every attribute unless a list is given.
  const described = listed.length > 0 || context.gpx.useExtension ? listed : others;
  if (described.length > 0) {
    const lines = described.flatMap((c, i) => [
      ...(i > 0 ? [cell.literal('&#10;')] : []),
      cell.literal(`${label(context, c)}: `),
      cell.coalesce(xmlValue(context, c), EMPTY),
    ]);
    parts.push(cell.concat(cell.literal('<desc>'), ...lines, cell.literal('</desc>')));
  }
  if (context.gpx.useExtension && others.length > 0) {
    const elements = others.map((c) => {
      const tag = xmlName(c.key);
      return element(`<${tag}>`, xmlValue(context, c), `</${tag}>`);
    });
    parts.push(cell.concat(cell.literal('<extensions>'), ...elements, cell.literal('</extensions>')));
  }
  return parts.length === 0 ? EMPTY : cell.concat(...parts);
}

const KML_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document>\n';
const GPX_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="duckportal" xmlns="http://www.topografix.com/GPX/1/1">\n';

export const GEO_TEXT_FORMATS = {
  geojson: {
    contentType: 'application/geo+json',
    extension: 'geojson',
    output: 'json',
    geo: true,
    write: writeGeojson,
  },
  kml: {
    contentType: 'application/vnd.google-earth.kml+xml',
    extension: 'kml',
    output: 'text',
    geo: true,
    // KML is WGS 84 by definition: epsg does not apply.
    write: (context) =>
      featureRows(
        { ...context, projection: null },
        kmlBody(context, split(context).others),
        (g, body) => `<Placemark>${body}${g ? kmlGeometry(g) : ''}</Placemark>`,
        KML_HEAD,
        '\n</Document></kml>\n',
      ),
  },
  gpx: {
    contentType: 'application/gpx+xml',
    extension: 'gpx',
    output: 'text',
    geo: true,
    // GPX is WGS 84 by definition: epsg does not apply.
    write: (context) =>
      featureRows(
        { ...context, projection: null },
        gpxBody(context, split(context).others),
        (g, body) => (g ? gpxElement(g, body) : ''),
        GPX_HEAD,
        '\n</gpx>\n',
      ),
  },
} satisfies Record<string, Exporter>;
