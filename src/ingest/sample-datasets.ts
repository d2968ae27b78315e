// The datasets of the sample portal: which vega-datasets file each comes from, how it is ingested, and our words about it.
import type { FieldSettings } from './dataset-file.js';

/** One sample dataset; licenses, sources and field descriptions come from the package's datapackage.json. */
export interface SampleDataset {
  readonly id: string;
  /** File name in vega-datasets/data/. */
  readonly file: string;
  readonly title: string;
  /** HTML; a paragraph naming the source is appended from datapackage.json. */
  readonly description: string;
  readonly theme: readonly string[];
  readonly keyword: readonly string[];
  readonly territory: readonly string[] | null;
  /** Adds a `location` column `country/state` before ingest (for a hierarchical facet). */
  readonly locationPath?: boolean;
  readonly facets: readonly string[];
  readonly multivalued?: Readonly<Record<string, string>>;
  readonly recordId?: string;
  readonly fields?: Readonly<Record<string, FieldSettings>>;
  /** Files of vega-datasets/data copied into attachments/. */
  readonly attachments?: readonly string[];
}

/** The sample portal's datasets, in build order. */
export const SAMPLE_DATASETS: readonly SampleDataset[] = [
  {
    id: 'airports',
    file: 'airports.csv',
    title: 'Airports of the United States',
    description:
      '<p>Airports of the United States and its territories, from major commercial hubs to regional and ' +
      'municipal fields, with their identification code, name, city, state and position.</p>' +
      '<p>The <code>location</code> field (<em>country/state</em>) is added by duckportal for a hierarchical ' +
      'facet; the original CSV is attached.</p>',
    theme: ['Transport'],
    keyword: ['airports', 'aviation', 'IATA', 'United States'],
    territory: ['United States'],
    locationPath: true,
    facets: ['state', 'country', 'location'],
    recordId: 'iata',
    fields: {
      iata: { label: 'IATA/FAA code', description: 'Location identifier of the airport' },
      name: { label: 'Airport' },
      city: { label: 'City' },
      state: { label: 'State', annotations: { disjunctive: [], facetsort: ['alphanum'] } },
      country: { label: 'Country' },
      latitude: { label: 'Latitude' },
      longitude: { label: 'Longitude' },
      location: { label: 'Country / state', annotations: { hierarchical: ['/'] } },
    },
    attachments: ['airports.csv'],
  },
  {
    id: 'flights',
    file: 'flights-3m.parquet',
    title: 'US domestic flight delays, 2001 (3 million flights)',
    description:
      '<p>Three million domestic flights of the first half of 2001, as reported by airlines to the Bureau of ' +
      'Transportation Statistics: date and time, delay in minutes (negative when early), distance in miles ' +
      'and the codes of the origin and destination airports.</p>' +
      '<p>Airport codes match the <code>iata</code> field of the airports dataset.</p>',
    theme: ['Transport'],
    keyword: ['flights', 'delays', 'aviation', 'on-time performance'],
    territory: ['United States'],
    facets: ['origin', 'destination'],
    fields: {
      date: { label: 'Departure', annotations: { timeserie_precision: ['day'] } },
      delay: { label: 'Delay (minutes)' },
      distance: { label: 'Distance (miles)' },
      origin: { label: 'Origin airport', annotations: { disjunctive: [] } },
      destination: { label: 'Destination airport', annotations: { disjunctive: [] } },
    },
  },
  {
    id: 'seattle-weather',
    file: 'seattle-weather.csv',
    title: 'Daily weather in Seattle, 2012-2015',
    description:
      '<p>One row per day from 2012 to 2015: precipitation, minimum and maximum temperature, wind, and a ' +
      'one-word summary of the weather (<em>drizzle, rain, snow, sun, fog</em>).</p>',
    theme: ['Environment'],
    keyword: ['weather', 'climate', 'Seattle', 'time series'],
    territory: ['Seattle, Washington, United States'],
    facets: ['weather'],
    fields: {
      date: { label: 'Date', annotations: { timeserie_precision: ['day'] } },
      precipitation: { label: 'Precipitation (mm)' },
      temp_max: { label: 'Maximum temperature (°C)' },
      temp_min: { label: 'Minimum temperature (°C)' },
      wind: { label: 'Wind (km/h)' },
      weather: { label: 'Weather', annotations: { facetsort: ['-count'] } },
    },
  },
  {
    id: 'earthquakes',
    file: 'earthquakes.json',
    title: 'Earthquakes of one week, worldwide (31 January - 7 February 2018)',
    description:
      '<p>The seismic events of all magnitudes recorded by the USGS Earthquake Hazards Program in one week: ' +
      'magnitude, place, depth (the third coordinate of each point), network, review status and the ' +
      'products published for each event.</p>' +
      '<p><code>time</code> and <code>updated</code> are milliseconds since 1970 as published by USGS.</p>',
    theme: ['Environment', 'Science'],
    keyword: ['earthquakes', 'seismology', 'USGS', 'GeoJSON'],
    territory: null,
    facets: ['magtype', 'net', 'status', 'types'],
    multivalued: { types: ',' },
    fields: {
      mag: { label: 'Magnitude' },
      magtype: { label: 'Magnitude type', annotations: { facetsort: ['alphanum'] } },
      types: { label: 'Products', description: 'Kinds of USGS products published for the event' },
    },
  },
  {
    id: 'movies',
    file: 'movies.json',
    title: 'Movies: box office, budgets and ratings',
    description:
      '<p>About 3,200 films with US and worldwide gross, DVD sales, production budget, release date, MPAA ' +
      'rating, running time, distributor, genre, director and ratings from Rotten Tomatoes and IMDB.</p>' +
      '<p>The source files some films under two genres at once (<em>Thriller/Suspense</em>, ' +
      '<em>Concert/Performance</em>); <code>major_genre</code> lists them separately. The data keeps the ' +
      'known errors of the original, which serves as a data-cleaning exercise.</p>',
    theme: ['Culture'],
    keyword: ['movies', 'box office', 'IMDB', 'Rotten Tomatoes'],
    territory: null,
    facets: ['major_genre', 'mpaa_rating', 'creative_type', 'distributor'],
    multivalued: { major_genre: '/' },
    fields: {
      major_genre: { label: 'Genres', annotations: { disjunctive: [] } },
      mpaa_rating: { label: 'MPAA rating' },
    },
  },
];
