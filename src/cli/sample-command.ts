// `duckportal sample --portal DIR [--only id,...] [--quiet]`: the flags -> buildSamplePortal().
import { stderrProgress } from '../ingest/progress.js';
import { buildSamplePortal } from '../ingest/sample.js';
import type { SampleFlags } from './ingest.js';

/** Builds the sample portal and prints each dataset it wrote. */
export async function main(flags: SampleFlags): Promise<void> {
  const reports = await buildSamplePortal(flags.portal, {
    ...(flags.only ? { only: flags.only } : {}),
    ...stderrProgress(flags.quiet),
  });
  for (const r of reports)
    process.stdout.write(`${r.datasetId}: ${r.recordsCount} records -> ${r.directory}\n`);
}
