// How much of a dataset's computed metadata a caller sees: all of it with full access, counts
// under its row filter with one, nothing with no access to the data (docs/access-control.md).
import type { Context } from 'koa';
import type { Dataset } from '../catalog/portal.js';
import type { Attachment } from '../catalog/attachments.js';
import { servedAttachments } from '../auth/access.js';
import { compileQuery } from '../odsql/index.js';
import { accessOf, openForRequest, servedSource, signalOf, type Services } from '../http/services.js';

/** What the dataset object of one caller carries of the data it describes. */
export interface CallerMetas {
  readonly dataVisible: boolean;
  readonly hiddenFields: ReadonlySet<string>;
  /** Records the caller can read (under its row filter), or null without access. */
  readonly recordsCount: number | null;
  /** False: bbox, temporal coverage and geometry types describe rows the caller cannot read. */
  readonly allRows: boolean;
  /** The attachments the caller is served, the only ones its dataset object lists. */
  readonly attachments: readonly Attachment[];
}

/** The caller's view of a dataset's metadata; a row filter costs one count query. */
export async function callerMetas(services: Services, ctx: Context, dataset: Dataset): Promise<CallerMetas> {
  const access = accessOf(ctx, dataset);
  const base = {
    dataVisible: access.dataVisible,
    hiddenFields: access.hiddenFields,
    attachments: servedAttachments(dataset, access),
  };
  if (!access.dataVisible) return { ...base, recordsCount: null, allRows: false };
  if (access.rowFilter === null) {
    return { ...base, recordsCount: dataset.file.computed.records_count, allRows: true };
  }
  await openForRequest(services, ctx, dataset);
  const compiled = compileQuery(servedSource(dataset, access), { select: 'count(*) as n' });
  const [row] = await services.engineOf(dataset).queryJson(compiled.sql, [], signalOf(ctx));
  return { ...base, recordsCount: Number(row?.n ?? 0), allRows: false };
}
