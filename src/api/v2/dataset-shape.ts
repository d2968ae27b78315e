// The Dataset object of v2.1 (explore-api.md "Dataset (v2.1 form)"), built from a loaded dataset.
import type { Dataset, Portal } from '../../catalog/portal.js';
import type { Attachment } from '../../catalog/attachments.js';
import { bboxPolygon, datasetFeatures } from '../../catalog/features.js';
import { visibilityMeta } from '../../catalog/catalog-table.js';
import { isoInZone } from '../time-format.js';
import type { CallerMetas } from '../caller-metas.js';

/** Request options that change the shape: links, app metas, the zone of timestamps. */
export interface ShapeOptions {
  /** The absolute URL of the source the dataset is read through (`<api>/catalog`, `<api>/monitoring`). */
  readonly sourceUrl: string;
  readonly timezone: string;
  readonly includeLinks: boolean;
  readonly includeAppMetas: boolean;
  /** What the caller sees of the data: data_visible, fields hidden from it, its records_count. */
  readonly view: CallerMetas;
}

/** Metas the public service always has in `default`, beyond what the portal files hold. */
function defaultMetas(
  portal: Portal,
  dataset: Dataset,
  timezone: string,
  view: CallerMetas,
): Record<string, unknown> {
  const { metas, computed } = dataset.file;
  const geometryTypes = computed.geometry_types.length ? computed.geometry_types : null;
  // Facts of rows the caller cannot read are null (docs/access-control.md).
  const ofAll = <T>(value: T): T | null => (view.allRows ? value : null);
  return {
    ...metas.default,
    domain: portal.settings.domain,
    staged: false,
    visibility: visibilityMeta(dataset),
    federated: false,
    metadata_processed: isoInZone(computed.metadata_processed, timezone),
    data_processed: isoInZone(computed.data_processed, timezone),
    modified: isoInZone(metas.default.modified ?? computed.data_processed, timezone),
    modified_updates_on_metadata_change: metas.default.modified === null ? false : null,
    modified_updates_on_data_change: metas.default.modified === null,
    geographic_reference: metas.default.geographic_reference ?? null,
    geographic_reference_auto: false,
    metadata_languages: metas.default.metadata_languages ?? [
      metas.default.language ?? portal.settings.language,
    ],
    records_count: view.recordsCount,
    temporal_coverage_from: ofAll(computed.temporal_coverage_from),
    temporal_coverage_to: ofAll(computed.temporal_coverage_to),
    bbox: ofAll(bboxPolygon(dataset)),
    geometry_types: ofAll(geometryTypes),
    source_domain_address: null,
    source_domain_title: null,
    source_domain: null,
    parent_domain: null,
    shared_catalog: null,
    source_dataset: null,
    geographic_area: null,
    geographic_area_mode: null,
    timezone: portal.settings.timezone,
    oauth_scope: null,
  };
}

/** Attachments in the v1 form the v2.1 dataset object also carries. */
function attachmentRefs(
  attachments: readonly Attachment[],
): { mimetype: string; id: string; title: string; url: string }[] {
  return attachments.map((a) => ({
    mimetype: a.mimeType,
    id: a.id,
    title: a.title,
    url: `odsfile://${a.fileName}`,
  }));
}

/** Links of one dataset, as HATEOAS relations (present only with include_links=true). */
export function datasetLinks(sourceUrl: string, id: string): { rel: string; href: string }[] {
  const self = `${sourceUrl}/datasets/${encodeURIComponent(id)}`;
  return [
    { rel: 'self', href: self },
    { rel: 'datasets', href: `${sourceUrl}/datasets` },
    { rel: 'records', href: `${self}/records` },
    { rel: 'exports', href: `${self}/exports` },
    { rel: 'facets', href: `${self}/facets` },
    { rel: 'attachments', href: `${self}/attachments` },
  ];
}

/**
 * v2.1 annotations: each name maps to its argument list, `[]` when it has none (explore-api.md;
 * the supplement's `true` loses where the two differ).
 */
export function annotationsObject(
  annotations: Readonly<Record<string, readonly string[]>>,
): Record<string, readonly string[]> {
  return Object.fromEntries(Object.entries(annotations).map(([name, args]) => [name, [...args]]));
}

/** The dataset object exactly in the v2.1 shape. */
export function datasetShape(
  portal: Portal,
  dataset: Dataset,
  options: ShapeOptions,
): Record<string, unknown> {
  const { metas, fields } = dataset.file;
  const { view } = options;
  const shape: Record<string, unknown> = {
    dataset_id: dataset.id,
    dataset_uid: dataset.file.dataset_uid,
    attachments: attachmentRefs(view.attachments),
    has_records: (view.recordsCount ?? 0) > 0,
    data_visible: view.dataVisible,
    fields: fields
      .filter((f) => !view.hiddenFields.has(f.name))
      .map((f) => ({
        name: f.name,
        label: f.label,
        type: f.type,
        description: f.description,
        annotations: annotationsObject(f.annotations),
      })),
    metas: { ...metas, default: defaultMetas(portal, dataset, options.timezone, view) },
    features: datasetFeatures(dataset, view),
  };
  if (options.includeLinks) shape.links = datasetLinks(options.sourceUrl, dataset.id);
  if (options.includeAppMetas) shape.app_metas = dataset.file.app_metas;
  return shape;
}
