// ClickHouse's output shapes of values. A boolean is cast to the Enum8 the ClickHouse engine reads
// as a boolean (BOOLEAN_TYPE in src/engine/clickhouse/types.ts: 0 or 1 alone could be a number);
// a geo shape is DuckDB's GeoJSON Feature around its stored geometry, written as text and handed
// as a JSON value (ClickHouse 18.16 builds no JSON); JSON texts are written as stored; a point is
// its (lon, lat) tuple, which the engine reads as a point.
import type { ValueType } from '../../types.js';
import type { Presenter } from '../dialect.js';
import { presentDate, presentDatetime } from './date.js';
import { FEATURE_HEAD, FEATURE_TAIL, jsonValue } from './json-text.js';
import { quoteString } from '../../../sql/clickhouse-quoting.js';

/** A stored GeoJSON geometry as DuckDB presents it: a Feature without properties. */
const feature: Presenter = (sql) =>
  jsonValue(
    `if(isNull(${sql}), NULL, concat(${quoteString(FEATURE_HEAD)}, ${sql}, ${quoteString(FEATURE_TAIL)}))`,
  );

const asIs: Presenter = (sql) => sql;

export const PRESENTERS = Object.freeze({
  text: asIs,
  int: asIs,
  double: asIs,
  boolean: (sql) => `CAST(${sql} AS Nullable(Enum8('false' = 0, 'true' = 1)))`,
  date: presentDate,
  datetime: presentDatetime,
  geo_point_2d: asIs,
  geo_shape: feature,
  file: asIs,
  json_blob: asIs,
  json: asIs,
  null: asIs,
} as const satisfies Record<ValueType, Presenter>);
