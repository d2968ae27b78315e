// `duckportal ingest <file> --portal DIR --id ID [...]`: the parsed flags -> ingest().
import type { IngestFlags } from '../cli/ingest.js';
import { ingest, type IngestOptions } from './ingest.js';
import { stderrProgress } from './progress.js';

/** The ingest options the flags ask for. */
export function ingestOptions(flags: IngestFlags, file: string): IngestOptions {
  return {
    file,
    portal: flags.portal,
    id: flags.id,
    ...(flags.title !== undefined ? { title: flags.title } : {}),
    ...(flags.format !== undefined ? { format: flags.format } : {}),
    ...(flags.geoPoint !== undefined ? { geoPoint: flags.geoPoint } : {}),
    facets: flags.facet.flat(),
    multivalued: Object.fromEntries(flags.multivalued),
    ...(flags.recordId !== undefined ? { recordId: flags.recordId } : {}),
    ...(flags.null.length > 0 ? { nullTokens: flags.null } : {}),
    ...(flags.sheet !== undefined ? { sheet: flags.sheet } : {}),
    ...(flags.maxDownload !== undefined ? { maxDownload: flags.maxDownload } : {}),
    ...(flags.strict ? { strict: true } : {}),
    ...stderrProgress(flags.quiet),
  };
}

/** Runs the ingest command and prints where the dataset went. */
export async function main(flags: IngestFlags, file: string): Promise<void> {
  const report = await ingest(ingestOptions(flags, file));
  process.stdout.write(
    `${report.datasetId}: ${report.recordsCount} records, ${report.fields.length} fields -> ${report.directory}\n`,
  );
}
