// v1 geofilter.distance / .polygon / .bbox (latitude first) as the ODSQL geo predicates of v2.1.
import type { QuerySource } from '../../catalog/source.js';
import { node, type Expr } from '../../odsql/index.js';
import { invalidParameter } from '../../http/errors.js';

export interface GeoFilters {
  readonly 'geofilter.distance'?: string | undefined;
  readonly 'geofilter.polygon'?: string | undefined;
  readonly 'geofilter.bbox'?: string | undefined;
}

const NUMBER = /^\s*-?\d+(?:\.\d+)?\s*$/;

function numbers(name: string, text: string, count: number | null): number[] {
  const parts = text.split(',');
  if ((count !== null && parts.length !== count) || !parts.every((p) => NUMBER.test(p))) {
    throw invalidParameter(
      name,
      `${text} was found but ${count ?? 'pairs of'} comma-separated numbers are expected.`,
    );
  }
  return parts.map(Number);
}

/** The field geofilters apply to: the first point field, else the first shape field. */
function geoField(source: QuerySource, name: string): Expr {
  const field =
    source.fields.find((f) => f.type === 'geo_point_2d') ?? source.fields.find((f) => f.type === 'geo_shape');
  if (!field) throw invalidParameter(name, 'the dataset has no geographic field.');
  return node.field(field.name);
}

const BUILDERS = {
  'geofilter.distance': (source: QuerySource, text: string): Expr => {
    const [lat, lon, meters] = numbers('geofilter.distance', text, 3) as [number, number, number];
    return node.call('within_distance', [
      geoField(source, 'geofilter.distance'),
      node.geometry(`POINT(${lon} ${lat})`),
      node.quantity(Math.abs(meters), 'm'),
    ]);
  },
  'geofilter.polygon': (source: QuerySource, text: string): Expr => {
    const points = [...text.matchAll(/\(([^()]*)\)/g)].map((m) => numbers('geofilter.polygon', m[1]!, 2));
    if (points.length < 3 || text.replace(/\([^()]*\)|,|\s/g, '') !== '') {
      throw invalidParameter(
        'geofilter.polygon',
        `${text} was found but (lat,lon),(lat,lon),(lat,lon)... is expected.`,
      );
    }
    const ring = [...points, points[0]!].map(([lat, lon]) => `${lon} ${lat}`);
    return node.call('intersects', [
      geoField(source, 'geofilter.polygon'),
      node.geometry(`POLYGON((${ring.join(', ')}))`),
    ]);
  },
  'geofilter.bbox': (source: QuerySource, text: string): Expr => {
    const bounds = numbers('geofilter.bbox', text, 4).map((n) => node.number(n));
    return node.call('in_bbox', [geoField(source, 'geofilter.bbox'), ...bounds]);
  },
} satisfies Record<keyof GeoFilters, (source: QuerySource, text: string) => Expr>;

/** The conditions of the geofilters a request gives. */
export function geoConditions(source: QuerySource, filters: GeoFilters): Expr[] {
  return (Object.keys(BUILDERS) as (keyof GeoFilters)[]).flatMap((name) => {
    const text = filters[name];
    return text === undefined ? [] : [BUILDERS[name](source, text)];
  });
}
