// Facts derived from a dataset's schema and computed metas, shared by every API generation.
import type { Dataset } from './dataset-types.js';
import type { Field } from './schema.js';

const GEO_TYPES = new Set<Field['type']>(['geo_point_2d', 'geo_shape']);
const TIME_TYPES = new Set<Field['type']>(['date', 'datetime']);

/** What one reader sees of a dataset: the records it can count (null: none) and the fields hidden from it. */
export interface FeatureView {
  readonly recordsCount: number | null;
  readonly hiddenFields: ReadonlySet<string>;
}

/**
 * The `features` list as `view` sees it: `analyze` with records it can read, `geo` with a geo
 * field and `timeserie` with a date field it can see (a hidden field reveals nothing).
 */
export function datasetFeatures(dataset: Dataset, view: FeatureView): string[] {
  const fields = dataset.file.fields.filter((f) => !view.hiddenFields.has(f.name));
  const features: string[] = [];
  if ((view.recordsCount ?? 0) > 0) features.push('analyze');
  if (fields.some((f) => GEO_TYPES.has(f.type))) features.push('geo');
  if (fields.some((f) => TIME_TYPES.has(f.type))) features.push('timeserie');
  return features;
}

/** The dataset's bounding box as the GeoJSON-style polygon of the metas, or null. */
export function bboxPolygon(dataset: Dataset): { type: 'Polygon'; coordinates: number[][][] } | null {
  const bbox = dataset.file.computed.bbox;
  if (!bbox) return null;
  const { west, south, east, north } = bbox;
  return {
    type: 'Polygon',
    coordinates: [
      [
        [west, south],
        [east, south],
        [east, north],
        [west, north],
        [west, south],
      ],
    ],
  };
}
