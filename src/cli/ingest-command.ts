// `duckportal ingest <file> --portal DIR --id ID [...]`: the parsed flags -> ingest().
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { MetasInput } from '../ingest/dataset-file.js';
import { isUrl } from '../ingest/download.js';
import { ingest, type IngestOptions } from '../ingest/ingest.js';
import { stderrProgress } from '../ingest/progress.js';
import type { IngestFlags } from './ingest.js';
import { reloadServers } from './reload-servers.js';

/** The ingest options the flags ask for. */
export function ingestOptions(flags: IngestFlags, file: string): IngestOptions {
  return {
    file,
    portal: flags.portal,
    id: flags.id,
    ...(flags.title !== undefined ? { title: flags.title } : {}),
    metas: givenMetas(flags),
    ...(flags.visibility !== undefined ? { visibility: flags.visibility } : {}),
    ...(flags.format !== undefined ? { format: flags.format } : {}),
    ...(flags.geoPoint !== undefined ? { geoPoint: flags.geoPoint } : {}),
    facets: flags.facet.flat(),
    autoFacets: flags.autoFacets,
    multivalued: Object.fromEntries(flags.multivalued),
    ...(flags.recordId !== undefined ? { recordId: flags.recordId } : {}),
    ...(flags.null.length > 0 ? { nullTokens: flags.null } : {}),
    ...(flags.sheet !== undefined ? { sheet: flags.sheet } : {}),
    ...(flags.headerRow !== undefined ? { headerRow: flags.headerRow } : {}),
    ...(flags.skipRows !== undefined ? { skipRows: flags.skipRows } : {}),
    ...(flags.headerRows !== undefined ? { headerRows: flags.headerRows } : {}),
    ...(flags.maxDownload !== undefined ? { maxDownload: flags.maxDownload } : {}),
    ...(flags.strict ? { strict: true } : {}),
    ...(flags.sortBy !== undefined ? { sortBy: flags.sortBy } : {}),
    ...(flags.attach.length > 0 ? { attachments: flags.attach } : {}),
    ...(flags.attachSource ? { attachSource: true } : {}),
    ...(flags.refresh !== undefined ? { refresh: flags.refresh } : {}),
    ...stderrProgress(flags.quiet),
  };
}

/** The `default` metas the flags give; those not given keep the dataset's. */
function givenMetas(flags: IngestFlags): MetasInput {
  const given = {
    description: flags.description,
    keyword: flags.keyword.length > 0 ? flags.keyword : undefined,
    theme: flags.theme.length > 0 ? flags.theme : undefined,
    license: flags.license,
    publisher: flags.publisher,
    language: flags.language,
  };
  return { default: Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) };
}

/** Runs the ingest command and prints where the dataset went; an existing dataset needs --replace. */
export async function main(flags: IngestFlags, file: string): Promise<void> {
  const current = path.join(flags.portal, 'datasets', flags.id);
  if (!flags.replace && (await lstat(current).catch(() => null)))
    throw new Error(
      `${flags.id}: the portal has this dataset already (--replace publishes a new version of it)`,
    );
  if (flags.refresh !== undefined && flags.refresh !== 'off' && !isUrl(file))
    throw new Error(`--refresh: ${file} is not an http:// or https:// URL to download again`);
  const report = await ingest(ingestOptions(flags, file));
  process.stdout.write(
    `${report.datasetId}: ${report.recordsCount} records, ${report.fields.length} fields -> ${report.directory}\n`,
  );
  if (flags.reload) await reloadServers(flags.portal, flags.quiet);
}
