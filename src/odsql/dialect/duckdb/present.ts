// DuckDB's output shapes of values (supplement 2), computed in SQL so DuckDB's own writers can stream them.
import { presentDate, presentDatetime } from './date-present.js';
import type { ValueType } from '../../types.js';
import type { Presenter } from '../dialect.js';

const asIs: Presenter = (sql) => sql;

/** A GeoJSON geometry text as a Feature (DuckDB JSON type); null stays null. */
const feature: Presenter = (sql) =>
  `CASE WHEN ${sql} IS NULL THEN NULL ELSE json_object('type', 'Feature', 'geometry', TRY_CAST(${sql} AS JSON), 'properties', json_object()) END`;

export const PRESENTERS = Object.freeze({
  text: asIs,
  int: asIs,
  double: asIs,
  boolean: asIs,
  date: (sql) => presentDate(sql),
  datetime: (sql, ctx) => presentDatetime(sql, ctx.timezone),
  geo_point_2d: asIs,
  geo_shape: feature,
  file: asIs,
  // Text that is not valid JSON stays text (a JSON string), never null; 'text' keeps it as stored.
  json_blob: (sql, ctx) =>
    ctx.output === 'json' ? `coalesce(TRY_CAST(${sql} AS JSON), to_json(${sql}))` : sql,
  json: asIs,
  null: asIs,
} as const satisfies Record<ValueType, Presenter>);
