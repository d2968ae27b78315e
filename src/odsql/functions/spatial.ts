// Registry entries of the geo values: distance() and the geo aggregations envelope() and bbox()
// (their DuckDB spelling: dialect/duckdb/geo.ts).
import type { FunctionEntry } from './registry.js';
import { fixed } from './registry.js';
import { parseGeometryLiteral } from './geo.js';

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
  },
  {
    name: 'envelope',
    kind: 'aggregate',
    clauses: ['select'],
    params: fixed('point'),
    arity: '1',
    // The convex hull is a large SQL expression, slow to plan: at most two per query
    // (bench/README.md, Measurements behind the code).
    cost: () => 600,
    returns: () => 'geo_shape',
  },
  {
    name: 'bbox',
    kind: 'aggregate',
    clauses: ['select'],
    params: fixed('geo'),
    arity: '1',
    returns: () => 'geo_shape',
  },
];
