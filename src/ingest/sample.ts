// The sample portal (`duckportal sample`), built from the npm package vega-datasets.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { quoteString } from '../sql/quoting.js';
import type { FieldSettings, MetasInput } from './dataset-file.js';
import { normalizeFieldName } from './field-names.js';
import { ingest, type IngestOptions, type IngestReport } from './ingest.js';
import { ensurePortalFile } from './portal-file.js';
import { SAMPLE_DATASETS, type SampleDataset } from './sample-datasets.js';

/** portal.json title of the sample portal. */
export const SAMPLE_PORTAL_TITLE = 'duckportal sample portal';

interface Reference {
  readonly name?: string;
  readonly title?: string;
  readonly path?: string;
}

/** The parts of vega-datasets' datapackage.json the sample reads. */
interface DataPackage {
  readonly version: string;
  readonly created: string;
  readonly resources: readonly {
    readonly path: string;
    readonly hash?: string;
    readonly licenses?: readonly Reference[];
    readonly sources?: readonly Reference[];
    readonly schema?: {
      readonly fields: readonly { readonly name: string; readonly description?: string }[];
    };
  }[];
}
type Resource = DataPackage['resources'][number];

/** The vega-datasets package directory, found by Node's module resolution from this file. */
export function vegaDatasetsDir(): string {
  const entry = createRequire(import.meta.url).resolve('vega-datasets');
  let dir = path.dirname(entry);
  while (path.basename(dir) !== 'vega-datasets' && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const isUrl = (text: string | undefined): boolean => /^https?:\/\//.test(text ?? '');

/** License name and URL: some entries put the URL in `title`, leaving only a short `name`. */
function license(resource: Resource): { license: string | null; license_url: string | null } {
  const entry = resource.licenses?.[0];
  if (!entry) return { license: null, license_url: null };
  const name = isUrl(entry.title) ? (entry.name ?? null) : (entry.title ?? entry.name ?? null);
  return { license: name, license_url: entry.path ?? (isUrl(entry.title) ? entry.title! : null) };
}

function sourceParagraph(source: Reference | undefined, pkg: DataPackage): string {
  const via = `the <a href="https://github.com/vega/vega-datasets">vega-datasets</a> package, version ${pkg.version}`;
  if (!source?.title) return `<p>Source: ${via} (the package names no original source).</p>`;
  const title = escapeHtml(source.title);
  const link = source.path ? `<a href="${escapeHtml(source.path)}">${title}</a>` : title;
  return `<p>Source: ${link}, through ${via}.</p>`;
}

/** Metas of one sample dataset: our words, the package's licenses and sources, a dcat and a provenance template. */
function sampleMetas(sample: SampleDataset, resource: Resource, pkg: DataPackage): MetasInput {
  const source = resource.sources?.[0];
  return {
    default: {
      description: sample.description + sourceParagraph(source, pkg),
      theme: [...sample.theme],
      keyword: [...sample.keyword],
      ...license(resource),
      language: 'en',
      publisher: 'Vega (vega-datasets)',
      references: source?.path ?? null,
      attributions: source?.title ? [source.title] : null,
      territory: sample.territory ? [...sample.territory] : null,
      modified: pkg.created,
    },
    dcat: { creator: source?.title ?? null, issued: pkg.created },
    provenance: {
      package: 'vega-datasets',
      version: pkg.version,
      file: sample.file,
      hash: resource.hash ?? null,
    },
  };
}

/** Field descriptions from the package's schema, overlaid with the sample's own settings. */
function fieldSettings(sample: SampleDataset, resource: Resource): Record<string, FieldSettings> {
  const settings: Record<string, FieldSettings> = {};
  for (const field of resource.schema?.fields ?? []) {
    if (field.description) settings[normalizeFieldName(field.name)] = { description: field.description };
  }
  for (const [name, own] of Object.entries(sample.fields ?? {}))
    settings[name] = { ...settings[name], ...own };
  return settings;
}

/** The file to ingest: the package's own, or a copy with the `location` path column added. */
async function sourceFile(sample: SampleDataset, dataDir: string, workDir: string): Promise<string> {
  const original = path.join(dataDir, sample.file);
  if (!sample.locationPath) return original;
  const target = path.join(workDir, sample.file);
  const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false' });
  const connection = await instance.connect();
  try {
    await connection.run(`COPY (SELECT *, concat_ws('/', country, state) AS location
      FROM read_csv(${quoteString(original)}, all_varchar = true, header = true))
      TO ${quoteString(target)} (FORMAT csv, HEADER)`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return target;
}

export interface SampleOptions {
  /** Dataset ids to (re)build; all when omitted. */
  readonly only?: readonly string[];
  readonly progress?: (message: string) => void;
  readonly progressTerminal?: NodeJS.WriteStream;
}

/** The ingest options of one sample dataset. */
function sampleIngestOptions(
  sample: SampleDataset,
  pkg: DataPackage,
  dataDir: string,
  file: string,
  portal: string,
): IngestOptions {
  const resource = pkg.resources.find((r) => r.path === sample.file) ?? { path: sample.file };
  return {
    file,
    portal,
    id: sample.id,
    title: sample.title,
    metas: sampleMetas(sample, resource, pkg),
    facets: sample.facets,
    multivalued: sample.multivalued ?? {},
    ...(sample.recordId ? { recordId: sample.recordId } : {}),
    fields: fieldSettings(sample, resource),
    attachments: (sample.attachments ?? []).map((name) => path.join(dataDir, name)),
  };
}

/** Builds (or rebuilds, idempotently) the sample portal in `portal`. */
export async function buildSamplePortal(
  portal: string,
  options: SampleOptions = {},
): Promise<IngestReport[]> {
  const packageDir = vegaDatasetsDir();
  const dataDir = path.join(packageDir, 'data');
  const pkg = JSON.parse(await readFile(path.join(packageDir, 'datapackage.json'), 'utf8')) as DataPackage;
  const unknown = (options.only ?? []).filter((id) => !SAMPLE_DATASETS.some((s) => s.id === id));
  if (unknown.length > 0) throw new Error(`no sample dataset ${unknown.join(', ')}`);
  await ensurePortalFile(portal, { title: SAMPLE_PORTAL_TITLE });
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-sample-'));
  const reports: IngestReport[] = [];
  try {
    for (const sample of SAMPLE_DATASETS.filter((s) => !options.only || options.only.includes(s.id))) {
      const file = await sourceFile(sample, dataDir, workDir);
      const progress = {
        ...(options.progress ? { progress: options.progress } : {}),
        ...(options.progressTerminal ? { progressTerminal: options.progressTerminal } : {}),
      };
      reports.push(await ingest({ ...sampleIngestOptions(sample, pkg, dataDir, file, portal), ...progress }));
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  return reports;
}
