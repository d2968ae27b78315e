// Facets of datasets served from a two-shard ClickHouse cluster (ClickHouse 18.16 has no GROUPING
// SETS: one GROUP BY per facet level, joined by UNION ALL): the sample airports (a disjunctive
// facet, a hierarchical one) and two small fixtures (films: a multivalued facet and a date; events:
// a datetime), each loaded into the cluster and attached beside its Parquet copy with the same field
// annotations; every facet request answers as the Parquet dataset's does, in v2.1 and v1.
import { expect } from 'chai';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ingest } from '../../src/ingest/ingest.js';
import { startClickHouseCluster, type ClickHouseCluster } from '../helpers/clickhouse-cluster.js';
import { attachCopyOf, readOnlyUrl } from '../helpers/clickhouse-attached.js';
import { SAMPLE_PORTAL } from '../helpers/sample-portal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const v2 = '/api/explore/v2.1/catalog/datasets';

/** Instants around midnight and month ends, so that the time zone moves some into another day. */
const EVENTS_CSV = [
  'at,kind',
  '2024-01-31T23:30:00Z,a',
  '2024-02-01T03:00:00Z,b',
  '2024-02-01T12:00:00Z,a',
  '2024-12-31T23:59:00Z,b',
  '2025-01-01T04:59:00Z,a',
  '2025-01-01T05:00:00Z,a',
  ',b',
].join('\n');

const GENRES = ['Drama', 'Comedy', 'Action', 'Horror', 'Documentary'];
const RATINGS = ['G', 'PG', 'R'];

/** 60 films from 1971 to 2030: genres (multivalued, some films none), a rating, a release date. */
const FILMS_CSV = [
  'title,genres,rating,released',
  ...Array.from({ length: 60 }, (_, i) => {
    const genres = [GENRES[i % 5], GENRES[(i * 3) % 5], i % 7 === 0 ? '' : GENRES[(i + 1) % 5]];
    const released = `${1971 + (i % 60)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + ((i * 7) % 28)).padStart(2, '0')}`;
    return `film ${i},${[...new Set(genres.filter(Boolean))].join(';')},${RATINGS[i % 3]},${i % 11 === 0 ? '' : released}`;
  }),
].join('\n');

describe('facets of datasets served from a two-shard ClickHouse cluster', function () {
  this.timeout(180_000);
  let dir: string;
  let portalDir: string;
  let cluster: ClickHouseCluster;
  let server: TestServer;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duckportal-ch-facets-'));
    cluster = await startClickHouseCluster(path.join(dir, 'cluster'), 2);
    portalDir = path.join(dir, 'portal');
    await mkdir(path.join(portalDir, 'datasets'), { recursive: true });
    await writeFile(path.join(portalDir, 'portal.json'), JSON.stringify({ title: 'Facets' }));
    await cp(path.join(SAMPLE_PORTAL, 'datasets', 'airports'), path.join(portalDir, 'datasets', 'airports'), {
      recursive: true,
    });
    const events = path.join(dir, 'events.csv');
    await writeFile(events, EVENTS_CSV);
    await ingest({ file: events, portal: portalDir, id: 'events', facets: ['kind'] });
    const films = path.join(dir, 'films.csv');
    await writeFile(films, FILMS_CSV);
    await ingest({
      file: films,
      portal: portalDir,
      id: 'films',
      facets: ['genres', 'rating'],
      multivalued: { genres: ';' },
    });
    const url = readOnlyUrl(cluster);
    for (const id of ['airports', 'films', 'events']) await attachCopyOf(cluster, portalDir, id, url);
    server = await startTestServer(portalDir, { cacheBytes: 0 });
  });
  after(async () => {
    await server?.close();
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** The answer of `request` for the Parquet dataset and for its attached copy, ids made alike. */
  const both = async (id: string, request: (id: string) => string): Promise<[unknown, unknown]> => {
    const answers = await Promise.all(
      [id, `${id}-ch`].map(async (each) => {
        const answer = await server.json(request(each));
        expect(answer.status, `${request(each)}: ${JSON.stringify(answer.body)}`).to.equal(200);
        // v1's record_timestamp is each dataset's time of processing.
        const text = JSON.stringify(answer.body).replaceAll(each, 'ID');
        return JSON.parse(text, (key, value: unknown) => (key === 'record_timestamp' ? undefined : value));
      }),
    );
    return [answers[0], answers[1]];
  };

  const REQUESTS: readonly (readonly [string, string, (id: string) => string])[] = [
    [
      'every facet: a disjunctive one, a plain one, a hierarchical one',
      'airports',
      (id) => `${v2}/${id}/facets`,
    ],
    [
      'two refines of a disjunctive facet, and an exclude',
      'airports',
      (id) => `${v2}/${id}/facets?refine=state:CA&refine=state:NV&exclude=country:Canada`,
    ],
    [
      'a hierarchical facet refined one level down',
      'airports',
      (id) => `${v2}/${id}/facets?facet=location&refine=location:USA`,
    ],
    [
      'a function facet beside a where',
      'airports',
      (id) => `${v2}/${id}/facets?facet=range(latitude, 10)&where=state in ('CA', 'TX', 'AK')`,
    ],
    ['a multivalued facet and a plain one', 'films', (id) => `${v2}/${id}/facets`],
    [
      'a multivalued facet refined on one of its values',
      'films',
      (id) => `${v2}/${id}/facets?facet=genres&facet=rating&refine=genres:Drama&exclude=rating:R`,
    ],
    [
      'a date facet refined to a year, then to a month',
      'films',
      (id) => `${v2}/${id}/facets?facet=released&refine=released:1995`,
    ],
    [
      'a datetime facet to the day in a time zone',
      'events',
      (id) => `${v2}/${id}/facets?facet=at&facet=kind&refine=at:2024/02&timezone=America/New_York`,
    ],
    ['a datetime facet in UTC', 'events', (id) => `${v2}/${id}/facets?facet=at&refine=at:2025`],
    [
      'v1 facets beside a page of records',
      'films',
      (id) => `/api/records/1.0/search/?dataset=${id}&facet=genres&facet=rating&rows=2&sort=title`,
    ],
  ];
  for (const [name, id, request] of REQUESTS) {
    it(`counts ${name} as the Parquet dataset does`, async () => {
      const [parquet, attached] = await both(id, request);
      expect(attached).to.deep.equal(parquet);
      expect(JSON.stringify(parquet)).to.match(/"count":[1-9]/);
    });
  }
});
