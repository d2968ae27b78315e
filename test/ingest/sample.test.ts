// The sample portal built from vega-datasets (flights-3m included, once), read back through the catalog loader.
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { datasetFeatures } from '../../src/catalog/features.js';
import { loadPortal, type Dataset, type Portal } from '../../src/catalog/portal.js';
import { buildSamplePortal, vegaDatasetsDir } from '../../src/ingest/sample.js';
import {
  cleanup,
  expectStorageMatchesSchema,
  query,
  readRows,
  tempDir,
  treeDigest,
  VEGA_DATA,
} from './helpers.js';
import { quoteString } from '../../src/sql/quoting.js';
import { DATASET_CHECKS } from '../../src/server/engines.js';

/** What a reader with full access sees. */
const fullView = (dataset: Dataset) => ({
  recordsCount: dataset.file.computed.records_count,
  hiddenFields: new Set<string>(),
});

describe('ingest: sample portal', function () {
  this.timeout(120000);
  let portal: string;
  let loaded: Portal;
  before(async () => {
    portal = path.join(await tempDir(), 'sample');
    await buildSamplePortal(portal);
    loaded = await loadPortal(portal, DATASET_CHECKS);
  });
  after(cleanup);

  const dataset = (id: string) => loaded.datasets.get(id)!;
  const field = (id: string, name: string) => dataset(id).file.fields.find((f) => f.name === name)!;

  it('finds vega-datasets through module resolution', () => {
    expect(path.join(vegaDatasetsDir(), 'data')).to.equal(VEGA_DATA);
  });

  it('writes a portal the catalog loads without a problem, titled "duckportal sample portal"', async () => {
    expect(loaded.problems).to.deep.equal([]);
    expect(loaded.settings.title).to.equal('duckportal sample portal');
    expect([...loaded.datasets.keys()]).to.deep.equal([
      'airports',
      'earthquakes',
      'flights',
      'movies',
      'seattle-weather',
    ]);
    for (const id of loaded.datasets.keys()) await expectStorageMatchesSchema(portal, id);
  });

  it('airports: iata ids, geo points, facets (disjunctive, facetsort, hierarchical) and the source CSV attached', async () => {
    const airports = dataset('airports');
    expect(airports.file.computed.records_count).to.equal(3376);
    expect(field('airports', 'iata').annotations).to.deep.equal({ id: [] });
    expect(field('airports', 'state').annotations).to.deep.equal({
      disjunctive: [],
      facet: [],
      facetsort: ['alphanum'],
    });
    expect(field('airports', 'country').annotations).to.deep.equal({ facet: [] });
    expect(field('airports', 'location').annotations).to.deep.equal({ facet: [], hierarchical: ['/'] });
    expect(field('airports', 'geo_point_2d').type).to.equal('geo_point_2d');
    const [row] = await query(
      `SELECT _recordid, location, geo_point_2d FROM read_parquet(${quoteString(airports.parquetPath)}) WHERE iata = 'LAX'`,
    );
    expect(row).to.deep.equal({
      _recordid: 'LAX',
      location: 'USA/CA',
      geo_point_2d: { lon: -118.4080744, lat: 33.94253611 },
    });
    expect(airports.attachments.map((a) => a.fileName)).to.deep.equal(['airports.csv']);
    const attached = await readFile(airports.attachments[0]!.filePath);
    expect(attached.equals(await readFile(path.join(VEGA_DATA, 'airports.csv')))).to.equal(true);
    expect(datasetFeatures(airports, fullView(airports))).to.deep.equal(['analyze', 'geo']);
  });

  it('flights: 3,000,000 records with a datetime, two disjunctive facets and its time coverage', async () => {
    const flights = dataset('flights');
    expect(flights.file.computed.records_count).to.equal(3_000_000);
    expect(flights.file.fields.map((f) => [f.name, f.type])).to.deep.equal([
      ['date', 'datetime'],
      ['delay', 'int'],
      ['distance', 'int'],
      ['origin', 'text'],
      ['destination', 'text'],
    ]);
    expect(field('flights', 'origin').annotations).to.deep.equal({ disjunctive: [], facet: [] });
    expect(flights.file.computed.temporal_coverage_from).to.equal('2001-01-01T00:01:00+00:00');
    const [counts] = await query(
      `SELECT count(DISTINCT _recordid) AS ids FROM read_parquet(${quoteString(flights.parquetPath)})`,
    );
    expect(counts).to.deep.equal({ ids: '3000000' });
  });

  it('measures the exact distinct values of each single-valued scalar field', async () => {
    for (const id of ['flights', 'movies', 'earthquakes']) {
      const { fields, computed } = dataset(id).file;
      const counted = fields.filter(
        (f) =>
          f.annotations.multivalued === undefined &&
          !['geo_point_2d', 'geo_shape', 'file', 'json_blob'].includes(f.type),
      );
      expect(Object.keys(computed.distinct_counts).sort(), id).to.deep.equal(
        counted.map((f) => f.name).sort(),
      );
      const [exact] = await query(
        `SELECT ${counted.map((f) => `count(DISTINCT "${f.name}") AS "${f.name}"`).join(', ')} FROM read_parquet(${quoteString(dataset(id).parquetPath)})`,
      );
      for (const f of counted) {
        const measured = computed.distinct_counts[f.name]!;
        expect(measured, `${id}.${f.name}`).to.equal(Number(exact![f.name]));
      }
    }
  });

  it('seattle-weather: a daily time series with field descriptions from the package', () => {
    const weather = dataset('seattle-weather');
    expect(field('seattle-weather', 'date')).to.deep.include({
      type: 'date',
      annotations: { timerangeFilter: [], timeserie_precision: ['day'] },
    });
    expect(field('seattle-weather', 'weather').annotations).to.deep.equal({
      facet: [],
      facetsort: ['-count'],
    });
    expect(field('seattle-weather', 'wind').description).to.equal('Wind speed in kilometers per hour');
    expect(datasetFeatures(weather, fullView(weather))).to.deep.equal(['analyze', 'timeserie']);
    expect(weather.file.computed.temporal_coverage_to).to.equal('2015-12-31');
  });

  it('earthquakes: shapes, centroids and a multivalued list of products', async () => {
    const quakes = dataset('earthquakes');
    expect(quakes.file.computed.geometry_types).to.deep.equal(['Point']);
    expect(field('earthquakes', 'geo_shape').type).to.equal('geo_shape');
    expect(field('earthquakes', 'types').annotations).to.deep.equal({ facet: [], multivalued: [','] });
    const [first] = await readRows(portal, 'earthquakes', 'types');
    expect(first!.types).to.deep.equal(['geoserve', 'nearby-cities', 'origin', 'phase-data', 'scitech-link']);
  });

  it('movies: genres split on "/" into a multivalued, disjunctive facet', async () => {
    expect(field('movies', 'major_genre')).to.deep.include({
      label: 'Genres',
      annotations: { disjunctive: [], facet: [], multivalued: ['/'] },
    });
    const [suspense] = await query(
      `SELECT count(*) AS n FROM read_parquet(${quoteString(dataset('movies').parquetPath)}) WHERE list_contains(major_genre, 'Suspense')`,
    );
    expect(Number(suspense!.n)).to.equal(239);
  });

  it('gives each dataset real metas: HTML description, license, dcat and a provenance template', () => {
    const { metas } = dataset('seattle-weather').file;
    expect(metas.default.title).to.equal('Daily weather in Seattle, 2012-2015');
    expect(metas.default.description).to.match(/^<p>.*<\/p>$/s);
    expect(metas.default.description).to.include('NOAA National Climatic Data Center');
    expect(metas.default.license).to.equal('U.S. Government Dataset');
    expect(metas.default.license_url).to.equal('https://www.usa.gov/government-works');
    expect(metas.default.theme).to.deep.equal(['Environment']);
    expect(metas.dcat).to.deep.equal({
      creator: 'NOAA National Climatic Data Center',
      issued: '2025-08-21T23:04:37.691343+00:00',
    });
    expect(metas.provenance).to.include({ package: 'vega-datasets', file: 'seattle-weather.csv' });
    expect(dataset('movies').file.metas.default.license).to.equal(null);
  });

  it('is idempotent: building again leaves every file byte-identical', async () => {
    const before = await treeDigest(portal);
    await buildSamplePortal(portal, { only: ['airports', 'seattle-weather', 'earthquakes', 'movies'] });
    expect(await treeDigest(portal)).to.deep.equal(before);
  });

  it('refuses an unknown sample id', async () => {
    const error = await buildSamplePortal(portal, { only: ['nope'] }).catch((e: Error) => e);
    expect((error as Error).message).to.equal('no sample dataset nope');
  });
});
