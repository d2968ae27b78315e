// Where an ingest made a dataset's geo_point_2d field from, as dataset.json records it.
import { z } from 'zod';

/** Two fields (latitude and longitude), or one field holding both (`lat,lon`). */
export const geoPointFrom = z.union([
  z.object({ lat: z.string(), lon: z.string() }).strict(),
  z.object({ field: z.string() }).strict(),
]);
export type GeoPointFrom = z.infer<typeof geoPointFrom>;
