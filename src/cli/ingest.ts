// `duckportal ingest` and `duckportal sample`: their flags, and the values peculiar to ingest.
import type { GeoPointFrom } from '../catalog/geo-point-from.js';
import { parseInputFormat } from '../ingest/input-format.js';
import { parseRefresh } from '../ingest/source-record.js';
import {
  negatable,
  optionalText,
  optionalValue,
  repeated,
  text,
  toggle,
  type FlagValues,
} from '../command-line/flags.js';
import { commaList, positiveNumber, wholeNumber } from '../command-line/parse.js';

/** `LATCOL,LONCOL` -> the two field names; `FIELD` -> the one field holding both (`lat,lon`). */
export function geoPoint(text: string): GeoPointFrom {
  const parts = commaList(text);
  if (parts.length === 1) return { field: parts[0]! };
  if (parts.length !== 2) throw new Error('expected LATCOL,LONCOL or FIELD');
  return { lat: parts[0]!, lon: parts[1]! };
}

/** `FIELD:SEP` -> the field and its separator: everything after the first colon. */
export function multivalued(text: string): readonly [string, string] {
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) throw new Error('expected FIELD:SEP');
  return [text.slice(0, colon), text.slice(colon + 1)];
}

/** `--max-download`: a whole number of bytes, with an optional K, M or G (powers of 1024). */
export function downloadSize(text: string): number {
  const match = /^(\d+)\s*([KMG]?)i?B?$/i.exec(text.trim());
  if (!match) throw new Error('expected bytes such as 500M or 2G');
  const power = ['', 'K', 'M', 'G'].indexOf(match[2]!.toUpperCase());
  return Number(match[1]) * 1024 ** power;
}

/** `--sort-by F1,F2`: the fields data.parquet is sorted on; `none` keeps the file's order. */
export function sortKey(text: string): string[] {
  return text.trim() === 'none' ? [] : commaList(text);
}

/** `--attach FILE=Title`: the file (up to the first `=`) and its title; `FILE` alone: no title. */
export function attachment(text: string): { file: string; title?: string } {
  const equals = text.indexOf('=');
  if (equals === 0) throw new Error('expected FILE or FILE=Title');
  if (equals < 0) return { file: text };
  const title = text.slice(equals + 1).trim();
  return { file: text.slice(0, equals), ...(title !== '' ? { title } : {}) };
}

/** `public` or `restricted`. */
export function visibility(text: string): Visibility {
  const found = VISIBILITIES.find((v) => v === text);
  if (!found) throw new Error(`expected ${VISIBILITIES.join(' or ')}`);
  return found;
}

const VISIBILITIES = ['public', 'restricted'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** Metadata flags: each, when given, replaces what the dataset had (hand edits included). */
export const INGEST_FLAGS = {
  portal: text('DIR', 'the portal folder'),
  id: text('ID', 'the dataset id'),
  replace: toggle('publish a new version of an existing dataset; what a flag does not give again is kept'),
  title: optionalText('TEXT', 'the dataset title (default: the id)'),
  description: optionalText('HTML', 'the dataset description'),
  keyword: repeated('WORD', 'a keyword'),
  theme: repeated('THEME', 'a theme'),
  license: optionalText('NAME', 'the license'),
  publisher: optionalText('NAME', 'who publishes the data'),
  language: optionalText('CODE', 'the language of the data (en, fr...)'),
  visibility: optionalValue(
    'public|restricted',
    'restricted: only the audiences of its access list see it',
    visibility,
  ),
  format: optionalValue(
    'FORMAT',
    'csv, tsv, json, jsonl, geojson, topojson, parquet or xlsx (default: by extension, then content)',
    parseInputFormat,
  ),
  geoPoint: optionalValue(
    'LATCOL,LONCOL|FIELD',
    'make a geo_point_2d field of these two fields, or of this one holding "lat,lon"',
    geoPoint,
  ),
  facet: repeated('F,...', 'fields to facet by', commaList),
  autoFacets: negatable('choose no facets when --facet is not given (default: text with few values, dates)'),
  multivalued: repeated('FIELD:SEP', 'split a text field into a list at SEP', multivalued),
  recordId: optionalText(
    'FIELD',
    'the field whose value identifies each record (default: a digest of the row)',
  ),
  null: repeated('TOKEN', 'a cell meaning "no value", beyond NA, N/A, null, - ...'),
  sheet: optionalText('NAME', 'the sheet of an .xlsx workbook, any case (default: the first)'),
  headerRow: optionalValue(
    'N',
    "a sheet's header row (default: the first below title and note rows)",
    positiveNumber,
  ),
  skipRows: optionalValue('N', 'rows of a sheet before its header (default: found)', wholeNumber),
  headerRows: optionalValue('N', 'header rows of a sheet, joined ("2019 / Q1"; default 1)', positiveNumber),
  refresh: optionalValue(
    '30m|6h|1d|off',
    'record the URL as the source `duckportal refresh` downloads again this often (off: forget it)',
    parseRefresh,
  ),
  maxDownload: optionalValue('BYTES', 'the most bytes downloaded from a URL (default: 2G)', downloadSize),
  attach: repeated('FILE[=TITLE]', 'copy a file into the attachments, with its title', attachment),
  attachSource: toggle('keep the source file (a URL: its download) as an attachment too'),
  reload: negatable("signal no server: by default this host's servers of the portal reload (SIGHUP)"),
  strict: toggle('fail, writing nothing, when a value cannot be stored as written'),
  sortBy: optionalValue(
    'F,...|none',
    'store the rows sorted on these fields (default: from 491,520 rows, the facets then the first date)',
    sortKey,
  ),
  quiet: toggle('print nothing but errors', 'q'),
};

export type IngestFlags = FlagValues<typeof INGEST_FLAGS>;

export const SAMPLE_FLAGS = {
  portal: text('DIR', 'the portal folder'),
  only: optionalValue('ID,...', 'build only these datasets', commaList),
  quiet: toggle('print nothing but errors', 'q'),
};

export type SampleFlags = FlagValues<typeof SAMPLE_FLAGS>;
