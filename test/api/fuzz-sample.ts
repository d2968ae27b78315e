// The sample portal as the fuzz test sees it: each small dataset's fields by kind, the catalog's,
// the facets of each, and the ODSQL clause generators over them (test/api/fuzz-odsql.ts).
import { clauses, type Clauses, type FieldKinds } from './fuzz-odsql.js';

/** The path prefix of v2.1. */
export const V21 = '/api/explore/v2.1';

/** The small sample datasets (a few thousand rows each), by the kind of their fields. */
export const DATASETS: Readonly<Record<string, FieldKinds>> = {
  airports: {
    num: ['latitude', 'longitude'],
    text: ['iata', 'name', 'city', 'state', 'country', 'location'],
    date: [],
    geo: ['geo_point_2d'],
    multi: [],
  },
  movies: {
    num: ['us_gross', 'production_budget', 'running_time_min', 'imdb_rating', 'rotten_tomatoes_rating'],
    text: ['title', 'mpaa_rating', 'distributor', 'director', 'creative_type'],
    date: ['release_date'],
    geo: [],
    multi: ['major_genre'],
  },
  'seattle-weather': {
    num: ['precipitation', 'temp_max', 'temp_min', 'wind'],
    text: ['weather'],
    date: ['date'],
    geo: [],
    multi: [],
  },
  earthquakes: {
    num: ['mag', 'time', 'felt', 'sig', 'dmin'],
    text: ['id', 'place', 'status', 'net', 'magtype', 'title'],
    date: [],
    geo: ['geo_point_2d', 'geo_shape'],
    multi: ['types'],
  },
};

/** The catalog's fields (catalog queries of both generations). */
export const CATALOG: FieldKinds = {
  num: ['records_count'],
  text: ['dataset_id', 'title', 'description', 'publisher', 'license', 'dcat.creator', 'default.language'],
  date: ['modified', 'data_processed'],
  geo: [],
  multi: ['theme', 'keyword', 'features'],
};

/** The facets of each dataset, and of the catalog. */
export const FACETS: Readonly<Record<string, readonly string[]>> = {
  airports: ['state', 'country', 'location'],
  movies: ['mpaa_rating', 'distributor', 'major_genre', 'creative_type'],
  'seattle-weather': ['weather', 'date'],
  earthquakes: ['status', 'net', 'types', 'magtype'],
  catalog: ['theme', 'keyword', 'publisher', 'license', 'modified', 'features'],
};

/** v2.0's technical fields of records, beside a dataset's own (`record_size` is refused with a 400). */
export const withV20Fields = (kinds: FieldKinds): FieldKinds => ({
  ...kinds,
  num: [...kinds.num, 'record_size'],
  text: [...kinds.text, 'datasetid', 'recordid'],
  date: [...kinds.date, 'record_timestamp'],
});

/** The clause generators of each dataset, in v2.1 and in v2.0 (with its technical fields). */
export const CLAUSES = new Map(Object.entries(DATASETS).map(([id, fields]) => [id, clauses(fields)]));
export const V20_CLAUSES = new Map(
  Object.entries(DATASETS).map(([id, fields]) => [id, clauses(withV20Fields(fields))]),
);
export const CATALOG_CLAUSES: Clauses = clauses(CATALOG);
