// The portal's API calls as a dataset, `ods-api-monitoring` (the public service's name for it):
// its fields, its metadata and the one audience that may read it, the admins. Only what a call
// says about itself is kept: never a key, a password or a query string (which may hold a key).
import { datasetFileSchema, type DatasetFile, type Field } from '../catalog/schema.js';
import { ADMIN_GROUP } from '../auth/users.js';

/** The dataset's id, as the public service names its API monitoring dataset. */
export const MONITORING_DATASET_ID = 'ods-api-monitoring';

/** The group whose users and keys may read the monitoring source (docs/operating.md). */
export { ADMIN_GROUP };

/** The retention when `--monitoring-days` is not given. */
export const DEFAULT_MONITORING_DAYS = 30;

/** One API call as it is kept. */
export interface ApiCall {
  /** When the answer was finished, ISO 8601 (UTC). */
  readonly timestamp: string;
  /** The dataset the call was about (a dataset of the portal), else null. */
  readonly dataset_id: string | null;
  /** The route's template (`/api/explore/v2.1/catalog/datasets/:dataset_id/records`), never the raw path. */
  readonly endpoint: string;
  readonly method: string;
  readonly status: number;
  /** The caller's user name, or `anonymous`. */
  readonly user_id: string;
  /** Bytes sent, headers included. */
  readonly size_res: number;
  /** Milliseconds from the request to the end of its answer. */
  readonly exec_time: number;
  /** True when the answer was cut before its end (the client left, or a stream broke). */
  readonly request_aborted: boolean;
}

const field = (name: keyof ApiCall, label: string, type: Field['type'], facet = false): Field => ({
  name,
  label,
  type,
  description: null,
  annotations: facet ? { facet: [] } : {},
});

/** The fields of the dataset, in the order of ApiCall. */
export const MONITORING_FIELDS: readonly Field[] = [
  field('timestamp', 'Timestamp', 'datetime'),
  field('dataset_id', 'Dataset', 'text', true),
  field('endpoint', 'Endpoint', 'text', true),
  field('method', 'Method', 'text', true),
  field('status', 'Status', 'int', true),
  field('user_id', 'User', 'text', true),
  field('size_res', 'Response size (bytes)', 'int'),
  field('exec_time', 'Duration (ms)', 'double'),
  field('request_aborted', 'Aborted', 'boolean', true),
];

/**
 * The dataset.json of the monitoring dataset: restricted to the admin group, whose row filter
 * keeps the last `days` days (so the retention is exact whatever files are still on disk, and
 * `now()` keeps its counts out of the count cache).
 */
export function monitoringDatasetFile(days: number, now = new Date()): DatasetFile {
  const stamp = now.toISOString();
  return datasetFileSchema.parse({
    dataset_uid: 'da_ods_api_monitoring',
    visibility: 'restricted',
    access: [{ groups: [ADMIN_GROUP], row_filter: `timestamp >= now(days=-${days})` }],
    metas: {
      default: {
        title: 'API monitoring',
        description: `The API calls of this portal over the last ${days} days.`,
        modified: stamp,
      },
    },
    fields: MONITORING_FIELDS,
    computed: { records_count: 0, data_processed: stamp, metadata_processed: stamp },
  });
}
