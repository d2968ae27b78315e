// The records in the map's view as a list under the map: the keyboard's way to what the map draws
// (its points and clusters are not tab stops: thousands would trap the tab key), and where a
// cluster of the last zoom lists its own records. Each opens in the table's record view; the
// rest are a link away, in the table tab filtered to the same box.
import { useApi } from '../shared/use-api.js';
import { datasetPath } from '../shared/dataset.js';
import { filterParams, stateSearch, type FilterState } from '../shared/url-state.js';
import { formatCount, noun } from '../shared/text.js';
import { ErrorNotice } from '../shared/error-notice.js';
import type { Field, Page } from '../shared/types.js';
import { formatValue } from '../shared/format-value.js';
import type { Row } from './map-load.js';
import { whereWithBbox } from './map-query.js';

/** How many records the list shows. */
export const LISTED = 10;

/** The box the list is of: an in_bbox condition, and whether it is the view or a cluster's cell. */
export interface Listed {
  readonly condition: string;
  readonly of: 'view' | 'cluster';
}

interface Props {
  readonly id: string;
  readonly fields: readonly Field[];
  readonly state: FilterState;
  readonly listed: Listed | null;
  readonly onOpen: (row: Row) => void;
}

/** The field naming a record in the list: a text field called title or name, else the first text field. */
export function titleField(fields: readonly Field[]): Field | null {
  const texts = fields.filter((f) => f.type === 'text');
  return texts.find((f) => /^(title|name)$/i.test(f.name)) ?? texts[0] ?? null;
}

/** The table tab's URL (beside this map tab) with the filters and the box's in_bbox. */
function tableHref(state: FilterState, condition: string): string {
  const search = stateSearch({ ...state, where: whereWithBbox(state.where, condition), page: 1 });
  return `${location.pathname.replace(/map\/?$/, 'table/')}${search}`;
}

/** The list of the first LISTED records in the box, with the count of all. */
export function MapRecords({ id, fields, state, listed, onOpen }: Props) {
  const params = filterParams(state);
  if (listed) params.append('where', listed.condition);
  params.set('limit', String(LISTED));
  const records = useApi<Page<Row>>(listed && datasetPath(id, '/records'), params);
  const title = titleField(fields);
  const total = records.data?.total_count ?? 0;
  const place = listed?.of === 'cluster' ? 'in this cluster' : 'in this view';
  return (
    <section class="map-records" aria-labelledby="map-records-title" aria-busy={records.loading}>
      <h2 id="map-records-title" tabIndex={-1}>
        Records {place}
      </h2>
      {records.error ? (
        <ErrorNotice error={records.error} onRetry={records.retry} />
      ) : (
        <p>
          <output>{records.data ? formatCount(total) : '…'}</output> {noun(total, 'record')}
          {total > LISTED ? `, the first ${LISTED}:` : ''}
        </p>
      )}
      {records.data && records.data.results.length > 0 && (
        <ul class="map-record-list">
          {records.data.results.map((row, index) => (
            <li key={index}>
              <button type="button" onClick={() => onOpen(row)}>
                {(title && formatValue(row[title.name])) || `Record ${index + 1}`}
              </button>
            </li>
          ))}
        </ul>
      )}
      {listed && total > LISTED && (
        <a href={tableHref(state, listed.condition)}>All {formatCount(total)} in the table</a>
      )}
    </section>
  );
}
