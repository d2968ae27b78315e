// dataset.json for a new ingest: identity, metas and hand edits carried over from the previous version.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { datasetFileSchema, type DatasetFile, type Field } from '../catalog/schema.js';
import type { GeoPointFrom } from '../catalog/geo-point-from.js';
import { describeZodError } from '../catalog/portal.js';
import type { ComputedFacts } from './computed.js';

/** Metas given to an ingest, by template then name; they replace the previous values one by one. */
export type MetasInput = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** What a caller may set on one field beyond what ingest derives from the data. */
export interface FieldSettings {
  readonly label?: string;
  readonly description?: string | null;
  /** Added to the field's annotations (an annotation given here replaces one of the same name). */
  readonly annotations?: Readonly<Record<string, readonly string[]>>;
}

/** Annotations that describe the stored data, so each ingest recomputes them instead of keeping old ones. */
const DERIVED_ANNOTATIONS: ReadonlySet<string> = new Set(['multivalued', 'timerangeFilter', 'id']);

/** A new dataset uid: `da_` and random base36, as the public service writes them. */
export function newDatasetUid(): string {
  const random = BigInt(`0x${randomBytes(8).toString('hex')}`).toString(36);
  return `da_${random.padStart(13, '0').slice(-10)}`;
}

/** The dataset.json of the current version, or null when there is none; an invalid one is an error. */
export async function readPreviousDatasetFile(file: string): Promise<DatasetFile | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  const parsed = datasetFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(`${file}: ${describeZodError(parsed.error)} (fix it or remove it before re-ingesting)`);
  }
  return parsed.data;
}

function mergeField(
  field: Field,
  previous: Field | undefined,
  settings: FieldSettings | undefined,
  replaceFacets: boolean,
): Field {
  const kept = Object.entries(previous?.annotations ?? {}).filter(
    ([name]) => !DERIVED_ANNOTATIONS.has(name) && !(replaceFacets && name === 'facet'),
  );
  const given = Object.entries(settings?.annotations ?? {}).map(([name, args]): [string, string[]] => [
    name,
    [...args],
  ]);
  return {
    name: field.name,
    label: settings?.label ?? previous?.label ?? field.label,
    type: field.type,
    description: settings?.description !== undefined ? settings.description : (previous?.description ?? null),
    // Sorted, so that the file does not depend on which version an annotation came from.
    annotations: Object.fromEntries(
      Object.entries(Object.fromEntries([...kept, ...Object.entries(field.annotations), ...given])).sort(
        ([a], [b]) => a.localeCompare(b),
      ),
    ),
  };
}

function mergeMetas(
  id: string,
  previous: DatasetFile['metas'] | undefined,
  given: MetasInput,
  title?: string,
) {
  const templates = new Set([...Object.keys(previous ?? {}), ...Object.keys(given)]);
  const merged: Record<string, Record<string, unknown>> = { default: {} };
  for (const template of templates) {
    merged[template] = { ...(previous?.[template] ?? {}), ...(given[template] ?? {}) };
  }
  merged.default!.title = title ?? merged.default!.title ?? id;
  return merged;
}

export interface DatasetFileInput {
  readonly id: string;
  readonly previous: DatasetFile | null;
  readonly fields: readonly Field[];
  readonly computed: ComputedFacts;
  readonly title?: string;
  readonly metas?: MetasInput;
  readonly visibility?: DatasetFile['visibility'];
  readonly access?: DatasetFile['access'];
  /** Facets given again: the previous version's facets are dropped, not kept beside them. */
  readonly replaceFacets?: boolean;
  /** Settings by field name (names already resolved). */
  readonly fieldSettings?: Readonly<Record<string, FieldSettings>>;
}

/** The validated dataset.json: a new uid only for a new dataset, metas and field edits merged. */
export function buildDatasetFile(input: DatasetFileInput): DatasetFile {
  const { previous } = input;
  const previousFields = new Map((previous?.fields ?? []).map((f) => [f.name, f]));
  const candidate = {
    dataset_uid: previous?.dataset_uid ?? newDatasetUid(),
    visibility: input.visibility ?? previous?.visibility ?? 'public',
    access: input.access ?? previous?.access ?? [],
    attachments: previous?.attachments ?? [],
    metas: mergeMetas(input.id, previous?.metas, input.metas ?? {}, input.title),
    fields: input.fields.map((f) =>
      mergeField(f, previousFields.get(f.name), input.fieldSettings?.[f.name], input.replaceFacets ?? false),
    ),
    app_metas: previous?.app_metas ?? {},
    computed: input.computed,
  };
  const parsed = datasetFileSchema.safeParse(candidate);
  if (!parsed.success) throw new Error(`dataset.json would be invalid: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/**
 * What the previous version asks to do again: its multivalued splits and its id field (from its
 * annotations), the columns its `--geo-point` named.
 */
export function rememberedSettings(previous: DatasetFile | null): {
  multivalued: Record<string, string>;
  geoPoint: GeoPointFrom | null;
  recordId?: string;
} {
  const fields = previous?.fields ?? [];
  const multivalued: Record<string, string> = {};
  for (const field of fields) {
    const separator = field.annotations.multivalued?.[0];
    if (separator !== undefined) multivalued[field.name] = separator;
  }
  const recordId = fields.find((f) => f.annotations.id)?.name;
  const geoPoint = previous?.computed.geo_point_from ?? null;
  return recordId ? { multivalued, geoPoint, recordId } : { multivalued, geoPoint };
}

/** Field settings keyed by field name (`resolve` maps a user's spelling), with `facets` added as `facet`. */
export function settingsByField(
  given: Readonly<Record<string, FieldSettings>>,
  facets: readonly string[],
  resolve: (option: string, name: string) => string,
): Record<string, FieldSettings> {
  const settings: Record<string, FieldSettings> = {};
  for (const [name, value] of Object.entries(given)) settings[resolve('fields', name)] = value;
  for (const facet of facets) {
    const name = resolve('--facet', facet);
    const current = settings[name] ?? {};
    settings[name] = { ...current, annotations: { ...current.annotations, facet: [] } };
  }
  return settings;
}
