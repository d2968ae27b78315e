// v1's `fields` and `sort` as the select and order_by of ODSQL, `sort=dist` and `sort=-dist`
// included: the distance to the center of `geofilter.distance`, nearest first either way.
import type { QuerySource } from '../../odsql/source.js';
import { findField, QueryLangError } from '../../odsql/index.js';
import { distanceFilter } from './geofilter.js';
import { defaultGeoField } from './geo-text.js';

const fieldName = (source: QuerySource, name: string, clause: 'order_by' | 'select'): string => {
  const field = findField(source.fields, name.trim());
  if (!field) throw new QueryLangError(`Unknown field: ${name.trim()}`, [clause]);
  return field.name;
};

/**
 * The ODSQL distance to the center of `geofilter.distance`, when the request gives one and the
 * source has a geographic field; `dist` then names it in `sort`.
 */
function distanceTo(source: QuerySource, center: string | undefined): string | null {
  const field = defaultGeoField(source.fields);
  if (center === undefined || !field) return null;
  const { lat, lon } = distanceFilter(center);
  return `distance(\`${field.name}\`, geom'POINT(${lon} ${lat})')`;
}

/**
 * v1 sort: `field` ascending, `-field` descending, as explore-api.md states (the supplement says the
 * reverse; the published interface wins, see docs/api.md). `dist` and `-dist` are the distance to
 * the center of `geofilter.distance`, nearest first both: under the public service's rule a minus
 * sorts ascending, so the apps sending `-dist` (most of them) want the nearest too (docs/api.md).
 * Without that filter it is the field named `dist` if there is one, else no order at all (public
 * apps send it regardless).
 */
export function orderByOf(source: QuerySource, sort: readonly string[], center?: string): string | undefined {
  const distance = distanceTo(source, center);
  const items = sort
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(
      (s) =>
        s !== '' && (distance !== null || s.replace(/^-/, '') !== 'dist' || findField(source.fields, 'dist')),
    );
  if (!items.length) return undefined;
  return items
    .map((s) => {
      const name = s.replace(/^-/, '');
      if (name === 'dist' && distance !== null) return `${distance} ASC`;
      return `\`${fieldName(source, name, 'order_by')}\` ${s.startsWith('-') ? 'DESC' : 'ASC'}`;
    })
    .join(', ');
}

/** v1 `fields=a,b`: the select of the named fields. */
export function selectOf(source: QuerySource, fields: string | undefined): string | undefined {
  if (fields === undefined) return undefined;
  return fields
    .split(',')
    .filter((f) => f.trim() !== '')
    .map((f) => `\`${fieldName(source, f, 'select')}\``)
    .join(', ');
}
