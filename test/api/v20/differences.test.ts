// /api/explore/v2.0 keeps the differences explore-api.md lists between v2.0 and v2.1
// (Versioning 3): no group for null keys in group_by (v2.0's aggregates, and its exports), and GPX
// attributes in the description element by default. Each is checked against v2.1 on the same request.
import { expect } from 'chai';
import { useSampleSuite } from '../../helpers/sample-portal.js';

const V20 = '/api/explore/v2.0';
const V21 = '/api/explore/v2.1';

describe('v2.0 differences from v2.1 (sample portal)', () => {
  const suite = useSampleSuite();

  const url = (prefix: string, tail: string, params: Record<string, string>) =>
    `${prefix}/catalog/datasets/${tail}?${new URLSearchParams(params).toString()}`;

  /** Movies per rating as DuckDB counts them, the null rating included. */
  const ratings = () =>
    suite.reference
      .rows('SELECT mpaa_rating, count(*)::INTEGER AS n FROM movies GROUP BY mpaa_rating')
      .then((rows) => rows.map((r) => ({ mpaa_rating: r.mpaa_rating, n: Number(r.n) })));
  const byRating = (rows: { mpaa_rating: unknown }[]) =>
    [...rows].sort((a, b) => String(a.mpaa_rating).localeCompare(String(b.mpaa_rating)));
  const params = { select: 'mpaa_rating, count(*) as n', group_by: 'mpaa_rating', limit: '100' };

  it('group_by: v2.1 records have a null group, v2.0 aggregates and records none', async () => {
    const expected = await ratings();
    expect(expected.some((r) => r.mpaa_rating === null)).to.equal(true);
    const v21 = await suite.server.json(url(V21, 'movies/records', params));
    expect(v21.body.total_count).to.equal(expected.length);
    expect(byRating(v21.body.results)).to.deep.equal(byRating(expected));
    const named = expected.filter((r) => r.mpaa_rating !== null);
    const aggregates = await suite.server.json(url(V20, 'movies/aggregates', params));
    expect(byRating(aggregates.body.aggregations)).to.deep.equal(byRating(named));
    const records = await suite.server.json(url(V20, 'movies/records', params));
    expect(records.body.total_count).to.equal(named.length);
    const groups = records.body.records.map((r: { record: { fields: unknown } }) => r.record.fields);
    expect(byRating(groups)).to.deep.equal(byRating(named));
  });

  it('group_by in an export: v2.1 has a null group, v2.0 none', async () => {
    const expected = await ratings();
    const exported = async (prefix: string) =>
      (await suite.server.get(url(prefix, 'movies/exports/json', params))).json();
    expect(byRating(await exported(V21))).to.deep.equal(byRating(expected));
    expect(byRating(await exported(V20))).to.deep.equal(
      byRating(expected.filter((r) => r.mpaa_rating !== null)),
    );
  });

  it('GPX: v2.1 writes attributes as extensions, v2.0 in the description element', async () => {
    const gpx = async (prefix: string, extra: Record<string, string> = {}) =>
      (
        await suite.server.get(
          url(prefix, 'airports/exports/gpx', {
            where: "iata='SFO'",
            select: 'iata, city, geo_point_2d',
            ...extra,
          }),
        )
      ).text();
    const v21 = await gpx(V21);
    expect(v21).to.contain('<extensions><iata>SFO</iata><city>San Francisco</city></extensions>');
    expect(v21).to.not.contain('<desc>');
    const v20 = await gpx(V20);
    expect(v20).to.contain('<desc>iata: SFO&#10;city: San Francisco</desc>');
    expect(v20).to.not.contain('<extensions>');
    // Asked for, v2.0 writes extensions as v2.1 does.
    expect(await gpx(V20, { use_extension: 'true' })).to.equal(v21);
  });
});
