// in_bbox(geo, lat1, lon1, lat2, lon2) on the sample portal (issue 30 item 5): two opposite corners
// in any order make the same box, and a longitude past ±180 crosses the antimeridian; each count is
// checked against DuckDB over the same Parquet.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

const V21 = '/api/explore/v2.1';

describe('in_bbox (sample portal)', () => {
  const suite = useSampleSuite();

  const count = async (dataset: string, where: string): Promise<number> => {
    const query = new URLSearchParams({ where, limit: '0' }).toString();
    const { status, body } = await suite.server.json(`${V21}/catalog/datasets/${dataset}/records?${query}`);
    expect(status, JSON.stringify(body)).to.equal(200);
    return body.total_count as number;
  };
  const expected = async (sql: string): Promise<number> =>
    Number((await suite.reference.rows(`SELECT count(*) AS n FROM ${sql}`))[0]!.n);

  it('is the same box from either diagonal, whichever corner comes first', async () => {
    const box = await expected(
      'airports WHERE geo_point_2d.lat BETWEEN 30 AND 45 AND geo_point_2d.lon BETWEEN -100 AND -80',
    );
    expect(box).to.equal(1520);
    for (const corners of [
      '30, -100, 45, -80',
      '45, -80, 30, -100',
      '45, -100, 30, -80',
      '30, -80, 45, -100',
    ]) {
      expect(await count('airports', `in_bbox(geo_point_2d, ${corners})`), corners).to.equal(box);
    }
  });

  it('crosses the antimeridian with a longitude past 180, for points and shapes', async () => {
    const across = await expected(
      `earthquakes WHERE geo_point_2d.lat BETWEEN -30 AND 60
         AND (geo_point_2d.lon >= 170 OR geo_point_2d.lon <= -170)`,
    );
    expect(across).to.be.within(1, 100);
    expect(await count('earthquakes', 'in_bbox(geo_point_2d, -30, 170, 60, 190)')).to.equal(across);
    expect(await count('earthquakes', 'in_bbox(geo_point_2d, 60, -170, -30, -190)')).to.equal(across);
    expect(await count('earthquakes', 'in_bbox(geo_shape, 60, 190, -30, 170)')).to.equal(across);
  });

  it('refuses a longitude past 360 with a QueryLangError naming the bounds', async () => {
    const query = new URLSearchParams({ where: 'in_bbox(geo_point_2d, 0, 0, 10, 400)' }).toString();
    const { status, body } = await suite.server.json(`${V21}/catalog/datasets/airports/records?${query}`);
    expect(status).to.equal(400);
    expect(body.error_code).to.equal('QueryLangError');
    expect(body.message).to.match(/longitudes within -360\.\.360/);
  });
});
