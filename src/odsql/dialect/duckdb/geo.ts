// DuckDB's spelling of the geo functions: distance filters, shape relations, in_bbox, distance(),
// the geo aggregations and geo_cluster(), over the builders of geo-builders.ts.
import {
  compileBbox,
  compileDistance,
  compileEnvelope,
  compileGeoCluster,
  compileInBbox,
  compileSpatial,
  compileWithinDistance,
} from './geo-builders.js';
import { geometryOf, geoType, metersOf, numberOf, relationOf } from '../../functions/predicate.js';
import { distanceOrWithin, type FunctionSpelling, type GroupingSpelling } from '../dialect.js';

const withinDistance: FunctionSpelling = ([geo, center, distance]) =>
  compileWithinDistance(geo!.sql, geoType(geo), geometryOf(center!.node), metersOf(distance!.node));

const spatial =
  (op: 'intersects' | 'disjoint' | 'within'): FunctionSpelling =>
  ([geo, shape]) =>
    compileSpatial(op, geo!.sql, geoType(geo), geometryOf(shape!.node));

export const GEO: ReadonlyMap<string, FunctionSpelling> = new Map<string, FunctionSpelling>([
  ['within_distance', withinDistance],
  [
    'distance',
    distanceOrWithin(
      (args) => compileDistance(args[0]!.sql, geoType(args[0]), geometryOf(args[1]!.node)),
      withinDistance,
    ),
  ],
  // Two opposite corners, in any order (explore-api.md: lat1, lon1, lat2, lon2).
  [
    'in_bbox',
    ([geo, lat1, lon1, lat2, lon2]) =>
      compileInBbox(geo!.sql, geoType(geo), numberOf(lat1), numberOf(lon1), numberOf(lat2), numberOf(lon2)),
  ],
  ['intersects', spatial('intersects')],
  ['disjoint', spatial('disjoint')],
  ['within', spatial('within')],
  ['polygon', spatial('within')],
  [
    'geometry',
    ([geo, shape, relation]) =>
      compileSpatial(relationOf(relation), geo!.sql, geoType(geo), geometryOf(shape!.node)),
  ],
  ['envelope', ([geo]) => compileEnvelope(geo!.sql, geoType(geo))],
  ['bbox', ([geo]) => compileBbox(geo!.sql, geoType(geo))],
]);

/** geo_cluster(point, precision): the cluster's key, and its centroid and count as output. */
export const geoCluster: GroupingSpelling = ([point, precision]) => {
  const cluster = compileGeoCluster(
    point!.sql,
    precision!.node.kind === 'number' ? precision!.node.value : 1,
  );
  const centroid = `{'lat': ${cluster.centroidLatSql}, 'lon': ${cluster.centroidLonSql}}`;
  return {
    group: cluster.keySql,
    output: `{'cluster_centroid': ${centroid}, 'count': count(*)}`,
    sort: cluster.keySql,
    filter: null,
    type: 'json',
  };
};
