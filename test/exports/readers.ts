// Real readers for exported files in tests: GDAL's ogrinfo, raptor's rapper, openpyxl, and file helpers.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A fresh temp folder for one suite's downloads. */
export const tempFolder = (): Promise<string> => mkdtemp(path.join(os.tmpdir(), 'duckportal-exports-'));

/** Writes bytes to `dir/name` and returns the path. */
export async function saved(dir: string, name: string, bytes: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

/** ogrinfo's summary of a file's first layer: feature count, geometry type, and the raw text. */
export async function ogrSummary(
  file: string,
  layer?: string,
): Promise<{ count: number; geometry: string; text: string }> {
  const { stdout } = await run('ogrinfo', ['-ro', '-so', file, ...(layer ? [layer] : ['-al'])]);
  const count = Number(/Feature Count: (\d+)/.exec(stdout)?.[1] ?? NaN);
  const geometry = /Geometry: (.+)/.exec(stdout)?.[1] ?? '';
  return { count, geometry, text: stdout };
}

/** ogrinfo's full dump of the features matching an attribute filter. */
export async function ogrFeatures(file: string, where: string, layer?: string): Promise<string> {
  const { stdout } = await run('ogrinfo', ['-ro', '-where', where, file, ...(layer ? [layer] : ['-al'])], {
    maxBuffer: 64 << 20,
  });
  return stdout;
}

/** The number of triples rapper parses from a file in `syntax` (it fails on a syntax error). */
export async function rapperTriples(file: string, syntax: 'turtle' | 'rdfxml' | 'ntriples'): Promise<number> {
  const { stderr } = await run('rapper', ['-i', syntax, '-c', file]);
  return Number(/returned (\d+) triples/.exec(stderr)?.[1] ?? NaN);
}

/** rapper's N-Triples of a file (to look for exact statements). */
export async function rapperNTriples(file: string, syntax: 'turtle' | 'rdfxml'): Promise<string> {
  const { stdout } = await run('rapper', ['-q', '-i', syntax, '-o', 'ntriples', file], {
    maxBuffer: 256 << 20,
  });
  return stdout;
}

/** One cell as openpyxl reads it: its Python type, value (dates in ISO 8601), is_date and format. */
export interface SheetCell {
  readonly type: string;
  readonly value: unknown;
  readonly date: boolean;
  readonly format: string;
}

const OPENPYXL_CELLS = `
import datetime, json, sys, openpyxl
sheet = openpyxl.load_workbook(sys.argv[1]).worksheets[0]
iso = lambda v: v.isoformat() if isinstance(v, (datetime.datetime, datetime.date, datetime.time)) else v
print(json.dumps([[{"type": type(c.value).__name__, "value": iso(c.value), "date": c.is_date,
  "format": c.number_format} for c in row] for row in sheet.iter_rows()]))
`;

/** The first sheet of an xlsx file as openpyxl (Debian's python3-openpyxl) reads it, row by row. */
export async function openpyxlCells(file: string): Promise<SheetCell[][]> {
  const { stdout } = await run('/usr/bin/python3', ['-c', OPENPYXL_CELLS, file], { maxBuffer: 64 << 20 });
  return JSON.parse(stdout) as SheetCell[][];
}

/** Each feature's fields as ogrinfo prints them (`name (Type) = value`); null and unset fields are absent. */
export async function ogrRows(file: string): Promise<Record<string, { type: string; value: string }>[]> {
  const { stdout } = await run('ogrinfo', ['-ro', '-al', '-geom=NO', file], { maxBuffer: 64 << 20 });
  return stdout
    .split(/^OGRFeature\(.*\):\d+$/m)
    .slice(1)
    .map((block) =>
      Object.fromEntries(
        [...block.matchAll(/^ {2}(\w+) \((\w+)\) = (.*)$/gm)]
          .filter(([, , , value]) => value !== '(null)')
          .map(([, name, type, value]) => [name!, { type: type!, value: value! }]),
      ),
    );
}

/** The rows and column types of a file as a plain DuckDB reads it (`source`: a table function or path). */
export async function duckRows(
  source: string,
): Promise<{ types: Record<string, string>; rows: Record<string, unknown>[] }> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const described = (
      await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)
    ).getRowObjectsJson();
    const types = Object.fromEntries(
      described.map((c) => [c.column_name as string, c.column_type as string]),
    );
    const rows = (await connection.runAndReadAll(`SELECT * FROM ${source}`)).getRowObjectsJson();
    return { types, rows };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** What rdflib (Debian's python3-rdflib) reads from one RDF file. */
export interface RdflibGraph {
  /** Isomorphic to the graph of the first file given. */
  readonly isomorphic: boolean;
  readonly triples: number;
  /** IRI subjects, sorted, and the number of blank-node subjects. */
  readonly subjects: string[];
  readonly blankSubjects: number;
  /** `predicate datatype` of every typed literal, sorted, without repeats. */
  readonly datatypes: string[];
  /** The graph in N-Triples, one sorted statement per line. */
  readonly ntriples: string[];
}

const RDFLIB_GRAPHS = `
import json, sys
from rdflib import BNode, Graph, Literal, URIRef
from rdflib.compare import isomorphic
graphs = []
for spec in json.loads(sys.argv[1]):
    graph = Graph()
    graph.parse(spec["file"], format=spec["format"])
    graphs.append(graph)
print(json.dumps([{
    "isomorphic": isomorphic(g, graphs[0]),
    "triples": len(g),
    "subjects": sorted({str(s) for s in g.subjects() if isinstance(s, URIRef)}),
    "blankSubjects": len({s for s in g.subjects() if isinstance(s, BNode)}),
    "datatypes": sorted({f"{p} {o.datatype}" for _, p, o in g if isinstance(o, Literal) and o.datatype}),
    "ntriples": sorted(line for line in g.serialize(format="nt").splitlines() if line),
} for g in graphs]))
`;

/** Parses RDF files with rdflib (format: turtle, n3, xml, json-ld, nt), comparing each graph with the first. */
export async function rdflibGraphs(
  files: readonly { file: string; format: string }[],
): Promise<RdflibGraph[]> {
  const { stdout } = await run('/usr/bin/python3', ['-c', RDFLIB_GRAPHS, JSON.stringify(files)], {
    maxBuffer: 256 << 20,
  });
  return JSON.parse(stdout) as RdflibGraph[];
}
