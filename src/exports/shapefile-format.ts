// Shapefile export: .shp/.shx/.dbf written to temp files in the engine's spill folder while the
// rows stream out of the engine (headers patched at the end), then served as one zip with .prj and .cpg.
import { randomUUID } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { cell, textWidthsSql } from '../odsql/index.js';
import { dbfField, dbfHeader, dbfNames, dbfRecord, dbfTextual } from './dbf.js';
import type { ExportContext, Exporter } from './export-context.js';
import { geometryColumn } from './geometry.js';
import { reproject, type Geometry } from './projection.js';
import { extend, SHAPE_TYPES, shapeContent, shapeHeader } from './shp-records.js';
import { typedSelect, type TypedCell } from './sql-cells.js';

/** Temp files of shapefile exports not yet removed (for tests that count leaks). */
export const openShapefiles = new Set<string>();

/** The longest text (in bytes) of each text or list cell, for the dBASE widths. */
async function textWidths(context: ExportContext, cells: readonly TypedCell[]) {
  if (cells.length === 0) return [];
  const measured = cells.map(({ kind, cell: typed }) => {
    if (!dbfTextual(kind)) return null;
    return kind === 'list' ? cell.join(typed, context.options.listSeparator) : typed;
  });
  const sql = textWidthsSql(context.query, measured);
  const [row] = await context.engine.withExportConnection(
    (connection) => connection.readJson(sql),
    context.signal,
  );
  return cells.map((_, i) => Number(row?.[`w${i}`] ?? 0));
}

/** Streams the rows into the three files; returns the shape type, extent and record count. */
async function writeFiles(context: ExportContext, files: Record<'shp' | 'shx' | 'dbf', FileHandle>) {
  const geometry = geometryColumn(context.columns)!;
  const others = context.columns.filter((c) => c !== geometry);
  const { cells, sql } = typedSelect(context, others, [cell.geometry(geometry, 'text')]);
  const widths = await textWidths(context, cells);
  const names = dbfNames(others.map((c) => context.options.headers.get(c.key) ?? c.key));
  const fields = cells.map((c, i) => dbfField(names[i]!, c.kind, widths[i] ?? 1));
  const dbfStart = dbfHeader(fields, 0).length;
  await files.dbf.write(Buffer.alloc(dbfStart));
  let type: number | null = null;
  let box: number[] | null = null;
  let records = 0;
  let shpOffset = 100;
  await context.engine.withExportConnection(async (connection) => {
    for await (const chunk of connection.chunks(sql)) {
      const geometries = chunk.values(0) as readonly (string | null)[];
      const values = cells.map((_, i) => chunk.values(i + 1));
      const shp: Buffer[] = [];
      const shx: Buffer[] = [];
      const dbf: Buffer[] = [];
      geometries.forEach((text, row) => {
        const parsed = text === null ? null : reproject(JSON.parse(text) as Geometry, context.projection);
        type ??= parsed ? (SHAPE_TYPES[parsed.type] ?? null) : null;
        const content = shapeContent(parsed, type ?? 0);
        if (content.box)
          box = extend(box ?? [...content.box], [
            [content.box[0]!, content.box[1]!],
            [content.box[2]!, content.box[3]!],
          ]);
        const head = Buffer.alloc(8);
        head.writeInt32BE(++records, 0);
        head.writeInt32BE(content.bytes.length / 2, 4);
        const index = Buffer.alloc(8);
        index.writeInt32BE(shpOffset / 2, 0);
        index.writeInt32BE(content.bytes.length / 2, 4);
        shp.push(head, content.bytes);
        shx.push(index);
        shpOffset += 8 + content.bytes.length;
        dbf.push(
          dbfRecord(
            fields,
            values.map((v) => v[row]),
            context.options.listSeparator,
          ),
        );
      });
      await files.shp.write(Buffer.concat(shp));
      await files.shx.write(Buffer.concat(shx));
      await files.dbf.write(Buffer.concat(dbf));
    }
  }, context.signal);
  await files.dbf.write(Buffer.from([0x1a]));
  const shapeType = type ?? 0;
  await files.shp.write(shapeHeader(shapeType, shpOffset, box), 0, 100, 0);
  await files.shx.write(shapeHeader(shapeType, 100 + records * 8, box), 0, 100, 0);
  await files.dbf.write(dbfHeader(fields, records), 0, dbfStart, 0);
}

/** The zip of the shapefile; temp files are removed once the zip is sent (or abandoned). */
async function writeShapefile(context: ExportContext): Promise<Readable> {
  const stem = path.join(context.engine.tempDirectory, `export-${randomUUID()}`);
  const paths = { shp: `${stem}.shp`, shx: `${stem}.shx`, dbf: `${stem}.dbf` };
  Object.values(paths).forEach((p) => openShapefiles.add(p));
  const remove = () =>
    Promise.all(
      Object.values(paths).map((p) => rm(p, { force: true }).finally(() => openShapefiles.delete(p))),
    );
  try {
    const handles = {
      shp: await open(paths.shp, 'w+'),
      shx: await open(paths.shx, 'w+'),
      dbf: await open(paths.dbf, 'w+'),
    };
    try {
      // Leave room for the headers, written once the counts are known.
      await handles.shp.write(Buffer.alloc(100));
      await handles.shx.write(Buffer.alloc(100));
      await writeFiles(context, handles);
    } finally {
      await Promise.all(Object.values(handles).map((h) => h.close()));
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return zipOf(paths, context, remove);
}

/**
 * The zip of the written files with the .prj and .cpg; `remove` runs once it is sent or given up.
 * yazl reads the files after this returns: one gone by then (the portal closed, its spill folder
 * wiped) fails the stream, which the export cuts and logs, never the process.
 */
export function zipOf(
  paths: Readonly<Record<'shp' | 'shx' | 'dbf', string>>,
  context: Pick<ExportContext, 'name' | 'projection'>,
  remove: () => Promise<unknown>,
): Readable {
  const zip = new yazl.ZipFile();
  for (const [extension, file] of Object.entries(paths)) zip.addFile(file, `${context.name}.${extension}`);
  zip.addBuffer(Buffer.from(context.projection?.wkt ?? ''), `${context.name}.prj`);
  zip.addBuffer(Buffer.from('UTF-8'), `${context.name}.cpg`);
  zip.end();
  const output = zip.outputStream as Readable;
  zip.on('error', (error: Error) => output.destroy(error));
  output.once('close', () => void remove());
  output.once('end', () => void remove());
  return output;
}

export const SHAPEFILE_FORMAT = {
  shp: {
    contentType: 'application/zip',
    extension: 'zip',
    output: 'text',
    geo: true,
    write: writeShapefile,
  },
} satisfies Record<string, Exporter>;
