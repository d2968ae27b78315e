// The export format names the API lists, in its order; each format's needs and writer are in the
// registry (registry.ts), which must hold exactly these names.

/** Dataset export formats of the spec, plus Arrow IPC; `geo` formats need a geo field. */
export const DATASET_EXPORT_FORMATS = [
  'csv',
  'fgb',
  'geojson',
  'gpx',
  'json',
  'jsonl',
  'jsonld',
  'kml',
  'n3',
  'ov2',
  'parquet',
  'rdfxml',
  'shp',
  'turtle',
  'xlsx',
  'arrow',
] as const;
export type DatasetExportFormat = (typeof DATASET_EXPORT_FORMATS)[number];

/** Catalog export formats (supplement section 1). */
export const CATALOG_EXPORT_FORMATS = [
  'csv',
  'json',
  'jsonl',
  'xlsx',
  'rdf',
  'ttl',
  'rss',
  'dcat',
  'dcat_ap_ch',
  'dcat_ap_de',
  'dcat_ap_se',
  'dcat_ap_sp',
  'dcat_ap_it',
  'dcat_ap_vl',
  'dcat_ap_benap',
] as const;
export type CatalogExportFormat = (typeof CATALOG_EXPORT_FORMATS)[number];
