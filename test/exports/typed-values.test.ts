// Typed values through the typed formats (parquet, arrow, xlsx, shapefile), each read back by a
// reader no one here wrote (DuckDB, apache-arrow, openpyxl, GDAL), equal the record API's values in
// the format's own types: xlsx dates are date cells with a date format, shapefile dates dBASE D
// fields, FlatGeobuf dates DateTime columns.
import { expect } from 'chai';
import { readFile, rm } from 'node:fs/promises';
import { tableFromIPC } from 'apache-arrow';
import { startFixtureServer } from '../helpers/fixture-portal.js';
import type { TestServer } from '../helpers/server.js';
import {
  duckRows,
  ogrFeatures,
  ogrRows,
  ogrSummary,
  openpyxlCells,
  saved,
  tempFolder,
  type SheetCell,
} from './readers.js';
import { addDays, addTricky, DAYS } from './tricky-fixture.js';

const DATASETS = '/api/explore/v2.1/catalog/datasets';

describe('typed values in xlsx, shapefile and FlatGeobuf exports', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startFixtureServer(async (portal) => {
      await addTricky(portal);
      await addDays(portal);
    });
    dir = await tempFolder();
  });
  after(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const download = async (dataset: string, format: string, params: Record<string, string> = {}) => {
    const response = await server.get(
      `${DATASETS}/${dataset}/exports/${format}?${new URLSearchParams(params)}`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.status, bytes.subarray(0, 300).toString()).to.equal(200);
    return saved(
      dir,
      `${dataset}-${Object.values(params).join('-').replace(/\W/g, '_')}.${format === 'shp' ? 'zip' : format}`,
      bytes,
    );
  };

  /** The sheet's data rows as objects keyed by the header row. */
  const sheetRows = async (dataset: string, params: Record<string, string> = {}) => {
    const [header, ...rows] = await openpyxlCells(await download(dataset, 'xlsx', params));
    return rows.map((row) => Object.fromEntries(row.map((cell, i) => [header![i]!.value as string, cell])));
  };

  it('xlsx: dates and datetimes are date cells with a date format, numbers numbers, booleans booleans', async () => {
    const [first, , , fourth] = await sheetRows('tricky');
    expect(first!.day).to.deep.equal({
      type: 'datetime',
      value: '2024-01-31T00:00:00',
      date: true,
      format: 'yyyy-mm-dd',
    } satisfies SheetCell);
    expect(first!.seen_at).to.deep.equal({
      type: 'datetime',
      value: '2024-01-31T12:00:00',
      date: true,
      format: 'yyyy-mm-dd hh:mm:ss',
    } satisfies SheetCell);
    expect([first!.n!.type, first!.n!.value]).to.deep.equal(['int', 1]);
    expect([first!.x!.type, first!.x!.value]).to.deep.equal(['float', 1.5]);
    expect([first!.flag!.type, first!.flag!.value]).to.deep.equal(['bool', true]);
    // A whole double is written as the record API writes it: 4, not 4.0.
    expect([fourth!.x!.type, fourth!.x!.value]).to.deep.equal(['int', 4]);
  });

  for (const timezone of ['UTC', 'Asia/Tokyo']) {
    it(`xlsx: every typed cell holds the record API's value (timezone ${timezone})`, async () => {
      const rows = await sheetRows('tricky', { timezone });
      const api = (await server.json(`${DATASETS}/tricky/records?timezone=${timezone}`)).body as {
        results: Record<string, unknown>[];
      };
      expect(rows).to.have.length(api.results.length);
      api.results.forEach((record, i) => {
        const cell = (key: string) => rows[i]![key]!.value;
        for (const key of ['n', 'x', 'flag'])
          expect(cell(key), `${key} of row ${i}`).to.equal(record[key] ?? null);
        const day = record.day as string | null;
        expect(cell('day'), `day of row ${i}`).to.equal(day === null ? null : `${day}T00:00:00`);
        // A sheet has no time zone: the cell is the wall-clock time the API gives, without its offset.
        const seen = record.seen_at as string | null;
        expect(cell('seen_at'), `seen_at of row ${i}`).to.equal(seen === null ? null : seen.slice(0, 19));
      });
      if (timezone === 'Asia/Tokyo') expect(rows[0]!.seen_at!.value).to.equal('2024-01-31T21:00:00');
    });
  }

  it('xlsx: dates from 1900-01-01 to 9999-12-31 are date cells, earlier ones their ISO text', async () => {
    const rows = await sheetRows('days');
    expect(rows.map((row) => [row.day!.type, row.day!.value])).to.deep.equal(
      DAYS.map((day) => (day < '1900' ? ['str', day] : ['datetime', `${day}T00:00:00`])),
    );
    expect(rows.map((row) => row.at!.value)).to.deep.equal(
      // The record API's datetimes have whole seconds: so do the cells.
      DAYS.map((day) => (day < '1900' ? `${day}T18:30:15+00:00` : `${day}T18:30:15`)),
    );
  });

  /** The typed columns of `tricky`, and what a reader's value of each is as JSON-like data. */
  type Typed = { n: number; x: number; flag: boolean; day: string; seen_at: number };
  type Read = { types: string[]; rows: { [K in keyof Typed]: Typed[K] | null }[] };
  const TYPED = ['n', 'x', 'flag', 'day', 'seen_at'] as const;
  const instant = (text: unknown) => (typeof text === 'string' ? Date.parse(text) : null);
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));

  /** Each typed format, the types its reader sees for n, x, flag, day, seen_at, and how to read it. */
  const FORMATS: { format: string; types: string[]; read: (file: string) => Promise<Read> }[] = [
    {
      format: 'parquet',
      types: ['BIGINT', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMP WITH TIME ZONE'],
      read: async (file) => {
        const { types, rows } = await duckRows(`(SELECT *, epoch_ms(seen_at) AS ms FROM '${file}')`);
        return {
          types: TYPED.map((key) => types[key]!),
          rows: rows.map((r) => ({ ...pick(r), n: number(r.n), seen_at: number(r.ms) })),
        };
      },
    },
    {
      format: 'arrow',
      types: ['Int64', 'Float64', 'Bool', 'Date32<DAY>', 'Timestamp<MICROSECOND, UTC>'],
      read: async (file) => {
        const table = tableFromIPC(await readFile(file));
        const values = (key: string) => [...table.getChild(key)!].map((v: unknown) => v ?? null);
        const days = values('day').map((v) =>
          v === null ? null : new Date(v as number).toISOString().slice(0, 10),
        );
        return {
          types: TYPED.map((key) => String(table.schema.fields.find((f) => f.name === key)!.type)),
          rows: values('n').map((n, i) => ({
            n: number(n),
            x: values('x')[i] as number | null,
            flag: values('flag')[i] as boolean | null,
            day: days[i]!,
            seen_at: values('seen_at')[i] as number | null,
          })),
        };
      },
    },
    {
      format: 'xlsx',
      // openpyxl's Python types (of the first row, which has every value).
      types: ['int', 'float', 'bool', 'datetime', 'datetime'],
      read: async (file) => {
        const [header, ...cells] = await openpyxlCells(file);
        const rows = cells.map((row) =>
          Object.fromEntries(row.map((cell, i) => [header![i]!.value as string, cell])),
        );
        return {
          types: TYPED.map((key) => rows[0]![key]!.type),
          rows: rows.map((r) => ({
            n: r.n!.value as number | null,
            x: r.x!.value as number | null,
            flag: r.flag!.value as boolean | null,
            day: typeof r.day!.value === 'string' ? r.day!.value.slice(0, 10) : null,
            // The sheet's wall-clock time is UTC's here (no timezone parameter).
            seen_at: typeof r.seen_at!.value === 'string' ? Date.parse(`${r.seen_at!.value}Z`) : null,
          })),
        };
      },
    },
    {
      format: 'shp',
      // dBASE III: numbers are N fields (GDAL reads a width of 19 or more as Real), booleans L
      // (GDAL reads them as text T/F), dates D; it has no date and time type: datetimes are text.
      types: ['Real', 'Real', 'String', 'Date', 'String'],
      read: async (file) => {
        const rows = await ogrRows(`/vsizip/${file}/tricky.shp`);
        return {
          types: TYPED.map((key) => rows[0]![key]!.type),
          rows: rows.map((r) => ({
            n: number(r.n?.value),
            x: number(r.x?.value),
            flag: r.flag ? r.flag.value === 'T' : null,
            day: r.day ? r.day.value.replaceAll('/', '-') : null,
            seen_at: instant(r.seen_at?.value),
          })),
        };
      },
    },
  ];

  /** The typed values of a record of the API or a row of a reader, null where absent. */
  function pick(record: Record<string, unknown>): { [K in keyof Typed]: Typed[K] | null } {
    return {
      n: number(record.n),
      x: number(record.x),
      flag: (record.flag ?? null) as boolean | null,
      day: (record.day ?? null) as string | null,
      seen_at: instant(record.seen_at),
    };
  }

  for (const { format, types, read } of FORMATS) {
    it(`${format}: the typed values of the record API, in the format's own types`, async () => {
      const api = (await server.json(`${DATASETS}/tricky/records`)).body as {
        results: Record<string, unknown>[];
      };
      const got = await read(await download('tricky', format));
      expect(got.types).to.deep.equal(types);
      expect(got.rows).to.deep.equal(api.results.map(pick));
      expect(got.rows[0]).to.deep.equal({
        n: 1,
        x: 1.5,
        flag: true,
        day: '2024-01-31',
        seen_at: Date.UTC(2024, 0, 31, 12),
      });
    });
  }

  it('fgb: dates and datetimes are DateTime columns', async () => {
    const file = await download('tricky', 'fgb');
    const summary = await ogrSummary(file);
    expect(summary.text).to.match(/^day: DateTime /m);
    expect(summary.text).to.match(/^seen_at: DateTime /m);
    const first = await ogrFeatures(file, "label LIKE 'He said%'");
    expect(first).to.match(/day \(DateTime\) = 2024\/01\/31/);
    expect(first).to.match(/seen_at \(DateTime\) = 2024\/01\/31 12:00:00/);
  });
});
