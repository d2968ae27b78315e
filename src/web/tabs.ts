// The tabs of a dataset page, in the order they are shown. Adding a tab is a line here and an
// entry in web/build.mjs (see src/web/layout.ts).
import type { Dataset } from '../catalog/portal.js';

export interface DatasetTab {
  /** The tab's URL segment: /explore/dataset/<id>/<name>/. */
  readonly name: string;
  readonly label: string;
  /** The manifest entry whose script fills the tab. */
  readonly entry: string;
  /** Whether the dataset has this tab (a map only for a dataset with a geo field). */
  readonly applies: (dataset: Dataset) => boolean;
}

const always = (): boolean => true;

/** Whether the dataset has a field the map can draw: points or shapes. */
const hasGeoField = (dataset: Dataset): boolean =>
  dataset.file.fields.some((field) => field.type === 'geo_point_2d' || field.type === 'geo_shape');

export const DATASET_TABS: readonly DatasetTab[] = [
  { name: 'information', label: 'Information', entry: 'information', applies: always },
  { name: 'table', label: 'Table', entry: 'table', applies: always },
  { name: 'map', label: 'Map', entry: 'map', applies: hasGeoField },
  { name: 'analyze', label: 'Analyze', entry: 'analyze', applies: always },
  { name: 'export', label: 'Export', entry: 'export', applies: always },
  { name: 'api', label: 'API', entry: 'api', applies: always },
];

/** The tabs `dataset` has. */
export function tabsOf(dataset: Dataset): DatasetTab[] {
  return DATASET_TABS.filter((tab) => tab.applies(dataset));
}
