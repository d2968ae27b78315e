// `duckportal ingest <file> --portal DIR --id ID [...]`: command-line options -> ingest().
import { parseArgs } from 'node:util';
import { ingest, type IngestOptions } from './ingest.js';
import { parseInputFormat } from './input-format.js';

const USAGE =
  'usage: duckportal ingest <file> --portal DIR --id ID [--title T] [--format F] [--geo-point LATCOL,LONCOL]\n' +
  '         [--facet F,...] [--multivalued F:SEP]... [--record-id FIELD] [--null TOKEN]... [--sheet NAME]\n' +
  '         [--max-download BYTES] [--quiet]   (<file> may be an http:// or https:// URL)';

/** Splits a comma list, dropping blanks. */
function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** `LATCOL,LONCOL` -> the two field names. */
export function parseGeoPoint(value: string): { lat: string; lon: string } {
  const parts = commaList(value);
  if (parts.length !== 2) throw new Error(`--geo-point expects LATCOL,LONCOL, got "${value}"`);
  return { lat: parts[0]!, lon: parts[1]! };
}

/** `F:SEP` (repeatable) -> field -> separator; the separator is everything after the first colon. */
export function parseMultivalued(values: readonly string[]): Record<string, string> {
  const entries = values.map((value) => {
    const colon = value.indexOf(':');
    if (colon <= 0 || colon === value.length - 1)
      throw new Error(`--multivalued expects FIELD:SEP, got "${value}"`);
    return [value.slice(0, colon), value.slice(colon + 1)] as const;
  });
  return Object.fromEntries(entries);
}

/** `--max-download`: a whole number of bytes, with an optional K, M or G (powers of 1024). */
function parseBytes(text: string): number {
  const match = /^(\d+)\s*([KMG]?)i?B?$/i.exec(text.trim());
  if (!match) throw new Error(`--max-download: expected bytes such as 500M or 2G, got "${text}"\n${USAGE}`);
  const power = ['', 'K', 'M', 'G'].indexOf(match[2]!.toUpperCase());
  return Number(match[1]) * 1024 ** power;
}

/** Turns the command line into ingest options; a mistake is an Error naming the option. */
export function parseIngestArgs(args: string[]): IngestOptions {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      portal: { type: 'string' },
      id: { type: 'string' },
      title: { type: 'string' },
      format: { type: 'string' },
      'geo-point': { type: 'string' },
      facet: { type: 'string', multiple: true },
      multivalued: { type: 'string', multiple: true },
      'record-id': { type: 'string' },
      null: { type: 'string', multiple: true },
      sheet: { type: 'string' },
      'max-download': { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
    },
  });
  const [file, ...extra] = positionals;
  if (file === undefined || extra.length > 0) throw new Error(`expected exactly one input file\n${USAGE}`);
  if (values.portal === undefined) throw new Error(`--portal is required\n${USAGE}`);
  if (values.id === undefined) throw new Error(`--id is required\n${USAGE}`);
  return {
    file,
    portal: values.portal,
    id: values.id,
    ...(values.title !== undefined ? { title: values.title } : {}),
    ...(values.format !== undefined ? { format: parseInputFormat(values.format) } : {}),
    ...(values['geo-point'] !== undefined ? { geoPoint: parseGeoPoint(values['geo-point']) } : {}),
    facets: (values.facet ?? []).flatMap(commaList),
    multivalued: parseMultivalued(values.multivalued ?? []),
    ...(values['record-id'] !== undefined ? { recordId: values['record-id'] } : {}),
    ...(values.null ? { nullTokens: values.null } : {}),
    ...(values.sheet !== undefined ? { sheet: values.sheet } : {}),
    ...(values['max-download'] !== undefined ? { maxDownload: parseBytes(values['max-download']) } : {}),
    ...(values.quiet ? {} : { progress: (line: string) => process.stderr.write(`${line}\n`) }),
  };
}

/** Runs the ingest command and prints where the dataset went. */
export async function main(args: string[]): Promise<void> {
  const report = await ingest(parseIngestArgs(args));
  process.stdout.write(
    `${report.datasetId}: ${report.recordsCount} records, ${report.fields.length} fields -> ${report.directory}\n`,
  );
}
