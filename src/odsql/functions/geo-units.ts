// Distances of ODSQL (10km, 300yd): the units of supplement 5 and their length in meters, and the
// sphere they are measured on.
import { QueryLangError } from '../errors.js';

/** Mean Earth radius (IUGG), the sphere every distance is measured on. */
export const EARTH_RADIUS_METERS = 6371008.8;

/** Meters in one of each distance unit (international yard and foot, statute mile). */
export const METERS_PER_UNIT = {
  mi: 1609.344,
  yd: 0.9144,
  ft: 0.3048,
  m: 1,
  cm: 0.01,
  km: 1000,
  mm: 0.001,
} as const satisfies Record<string, number>;

export type DistanceUnit = keyof typeof METERS_PER_UNIT;

const UNIT_NAMES = Object.keys(METERS_PER_UNIT).join(', ');

/** Meters in `value` units; the unit is matched without regard to case (10KM is 10km). */
export function distanceInMeters(value: number, unit: string): number {
  const key = unit.toLowerCase();
  if (!Object.hasOwn(METERS_PER_UNIT, key)) {
    throw new QueryLangError(`Unknown distance unit: ${unit} (expected one of ${UNIT_NAMES})`);
  }
  if (!Number.isFinite(value) || value < 0) {
    throw new QueryLangError(`A distance must be a non-negative number, got ${value}${unit}`);
  }
  return value * METERS_PER_UNIT[key as DistanceUnit];
}

/** Meters in a distance written as a number glued to its unit: '10km', '5mi', '12.5m'. */
export function parseDistance(text: string): number {
  const match = /^(\d+(?:\.\d+)?|\.\d+)([a-zA-Z]+)$/.exec(text.trim());
  if (!match) {
    throw new QueryLangError(
      `Invalid distance: ${text} (a number glued to one of ${UNIT_NAMES}, such as 10km)`,
    );
  }
  return distanceInMeters(Number(match[1]), match[2]!);
}
