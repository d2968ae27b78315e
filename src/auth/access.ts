// What a caller may see of a dataset: nothing, all of it, or its audience's view (fields hidden,
// rows filtered). Public datasets are open to all unless an audience naming the caller narrows
// them; restricted ones only to the users and groups of an audience.
import type { Dataset } from '../catalog/portal.js';
import type { Attachment } from '../catalog/attachments.js';
import type { Audience } from '../catalog/schema.js';
import type { KeyOwner } from './keys.js';

/** A caller's view of one dataset. */
export interface DatasetAccess {
  /** False: the dataset is listed (data_visible false) but its data answers 403. */
  readonly dataVisible: boolean;
  readonly hiddenFields: ReadonlySet<string>;
  /** ODSQL `where` applied before the caller's own query, or null. */
  readonly rowFilter: string | null;
}

const FULL: DatasetAccess = { dataVisible: true, hiddenFields: new Set(), rowFilter: null };
const NONE: DatasetAccess = { dataVisible: false, hiddenFields: new Set(), rowFilter: null };

function names(audience: Audience, caller: KeyOwner | null): boolean {
  if (audience.users.includes('*')) return true;
  if (caller === null) return false;
  return audience.users.includes(caller.user) || audience.groups.some((g) => caller.groups.includes(g));
}

/** The view of `dataset` that `caller` (null = anonymous) gets. */
export function datasetAccess(dataset: Dataset, caller: KeyOwner | null): DatasetAccess {
  const audience = dataset.file.access.find((a) => names(a, caller));
  if (!audience) return dataset.file.visibility === 'public' ? FULL : NONE;
  return {
    dataVisible: true,
    hiddenFields: new Set(audience.hidden_fields),
    rowFilter: audience.row_filter,
  };
}

/** True when `access` reads every row and every field of the dataset (no row filter, no hidden field). */
export function readsWhole(access: DatasetAccess): boolean {
  return access.dataVisible && access.rowFilter === null && access.hiddenFields.size === 0;
}

/**
 * The attachments `access` is served (and sees listed): all of them to a whole reader; only those
 * marked for all audiences under a row filter or hidden fields, since a file is not filtered;
 * none without access to the data.
 */
export function servedAttachments(dataset: Dataset, access: DatasetAccess): readonly Attachment[] {
  if (!access.dataVisible) return [];
  return readsWhole(access) ? dataset.attachments : dataset.attachments.filter((a) => a.allAudiences);
}
