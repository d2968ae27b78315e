// ClickHouse's output shapes of values. A boolean is cast to the Enum8 the ClickHouse engine reads
// as a boolean (BOOLEAN_TYPE in src/engine/clickhouse/types.ts: 0 or 1 alone could be a number);
// geo shapes and JSON texts are written as stored, for the engine to shape (ClickHouse 18.16 builds
// no JSON); a point is its (lon, lat) tuple.
import type { ValueType } from '../../types.js';
import type { Presenter } from '../dialect.js';
import { presentDate, presentDatetime } from './date.js';

const asIs: Presenter = (sql) => sql;

export const PRESENTERS = Object.freeze({
  text: asIs,
  int: asIs,
  double: asIs,
  boolean: (sql) => `CAST(${sql} AS Nullable(Enum8('false' = 0, 'true' = 1)))`,
  date: presentDate,
  datetime: presentDatetime,
  geo_point_2d: asIs,
  geo_shape: asIs,
  file: asIs,
  json_blob: asIs,
  json: asIs,
  null: asIs,
} as const satisfies Record<ValueType, Presenter>);
