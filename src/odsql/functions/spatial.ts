// Registry entries of the geo values: distance() and the geo aggregations envelope() and bbox(),
// each one line over the builders of geo.ts.
import type { Arg, FunctionEntry } from './registry.js';
import { fixed } from './registry.js';
import { compileBbox, compileDistance, compileEnvelope, parseGeometryLiteral } from './geo.js';

const geoType = (arg: Arg | undefined) => (arg?.type === 'geo_point_2d' ? 'geo_point_2d' : 'geo_shape');

export const SPATIAL_FUNCTIONS: readonly FunctionEntry[] = [
  {
    name: 'distance',
    kind: 'scalar',
    clauses: ['select', 'order_by'],
    params: fixed('geo', 'geometry'),
    arity: '2',
    cost: () => 10,
    check: ([, center]) =>
      void parseGeometryLiteral(center?.node.kind === 'geometry' ? center.node.text : ''),
    returns: () => 'double',
    compile: ([geo, center]) =>
      compileDistance(
        geo!.sql,
        geoType(geo),
        parseGeometryLiteral(center!.node.kind === 'geometry' ? center!.node.text : ''),
      ),
  },
  {
    name: 'envelope',
    kind: 'aggregate',
    clauses: ['select'],
    params: fixed('point'),
    arity: '1',
    // The convex hull is about 100 kB of SQL and plans in about 0.7 s: at most two per query.
    cost: () => 600,
    returns: () => 'geo_shape',
    compile: ([geo]) => compileEnvelope(geo!.sql, geoType(geo)),
  },
  {
    name: 'bbox',
    kind: 'aggregate',
    clauses: ['select'],
    params: fixed('geo'),
    arity: '1',
    returns: () => 'geo_shape',
    compile: ([geo]) => compileBbox(geo!.sql, geoType(geo)),
  },
];
