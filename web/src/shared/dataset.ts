// The dataset of a dataset page, as the API describes it to this caller (/catalog/datasets/<id>).
import { useApi, type Loaded } from './use-api.js';
import type { Dataset, Field } from './types.js';

/** The API path of a dataset, or of something under it (`/records`, `/exports/csv`). */
export function datasetPath(id: string, below = ''): string {
  return `/catalog/datasets/${encodeURIComponent(id)}${below}`;
}

/** Loads the dataset lookup once. */
export function useDataset(id: string): Loaded<Dataset> {
  return useApi<Dataset>(datasetPath(id));
}

/** A field's label, falling back to its name; a name no field has is returned as it is. */
export function fieldLabel(fields: readonly Field[], name: string): string {
  const field = fields.find((f) => f.name === name);
  return field?.label || name;
}
