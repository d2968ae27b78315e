// v1 geofilter.distance / .polygon / .bbox (latitude first) as the ODSQL geo predicates of v2.1.
import type { QuerySource } from '../../odsql/source.js';
import { node, type Expr } from '../../odsql/index.js';
import { invalidParameter } from '../../http/errors.js';
import { defaultGeoField, meetsPolygon, numberList, pointList, withinMeters } from './geo-text.js';

export interface GeoFilters {
  readonly 'geofilter.distance'?: string | undefined;
  readonly 'geofilter.polygon'?: string | undefined;
  readonly 'geofilter.bbox'?: string | undefined;
}

function numbers(name: string, text: string, count: number | null): number[] {
  const found = numberList(text, count);
  if (found) return found;
  throw invalidParameter(
    name,
    `${text} was found but ${count ?? 'pairs of'} comma-separated numbers are expected.`,
  );
}

/** The field geofilters apply to: the first point field, else the first shape field. */
function geoField(source: QuerySource, name: string): string {
  const field = defaultGeoField(source.fields);
  if (!field) throw invalidParameter(name, 'the dataset has no geographic field.');
  return field.name;
}

/** `geofilter.distance`'s center and radius, latitude first; a 400 naming it when unreadable. */
export function distanceFilter(text: string): { lat: number; lon: number; meters: number } {
  const [lat, lon, meters] = numbers('geofilter.distance', text, 3) as [number, number, number];
  return { lat, lon, meters };
}

const BUILDERS = {
  'geofilter.distance': (source: QuerySource, text: string): Expr => {
    const { lat, lon, meters } = distanceFilter(text);
    return withinMeters(geoField(source, 'geofilter.distance'), lat, lon, meters);
  },
  'geofilter.polygon': (source: QuerySource, text: string): Expr => {
    for (const m of text.matchAll(/\(([^()]*)\)/g)) numbers('geofilter.polygon', m[1]!, 2);
    const points = pointList(text);
    if (!points) {
      throw invalidParameter(
        'geofilter.polygon',
        `${text} was found but (lat,lon),(lat,lon),(lat,lon)... is expected.`,
      );
    }
    return meetsPolygon(geoField(source, 'geofilter.polygon'), points);
  },
  'geofilter.bbox': (source: QuerySource, text: string): Expr => {
    const bounds = numbers('geofilter.bbox', text, 4).map((n) => node.number(n));
    return node.call('in_bbox', [node.field(geoField(source, 'geofilter.bbox'), true), ...bounds]);
  },
} satisfies Record<keyof GeoFilters, (source: QuerySource, text: string) => Expr>;

/** The conditions of the geofilters a request gives. */
export function geoConditions(source: QuerySource, filters: GeoFilters): Expr[] {
  return (Object.keys(BUILDERS) as (keyof GeoFilters)[]).flatMap((name) => {
    const text = filters[name];
    return text === undefined ? [] : [BUILDERS[name](source, text)];
  });
}
