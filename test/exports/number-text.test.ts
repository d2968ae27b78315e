// Numbers in CSV are written as JSON writes them (issue 30, item 10): a double holding a whole
// value is `2`, not DuckDB's `2.0`, in the v2.1 export and the v1 download alike.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

const V21 = '/api/explore/v2.1';
const DOUBLES = ['precipitation', 'temp_max', 'temp_min', 'wind'];

describe('number text in CSV (sample portal)', () => {
  const suite = useSampleSuite();

  /** The CSV's rows as objects of cell texts (seattle-weather has no quoted cells). */
  const csvRows = (text: string): Record<string, string>[] => {
    const [header, ...lines] = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    const keys = header!.split(';');
    return lines.map((line) => Object.fromEntries(line.split(';').map((cell, i) => [keys[i], cell])));
  };

  it('writes every double of seattle-weather as the JSON export does', async () => {
    const json = (await (
      await suite.server.get(`${V21}/catalog/datasets/seattle-weather/exports/json`)
    ).json()) as Record<string, number>[];
    const csv = csvRows(
      await (await suite.server.get(`${V21}/catalog/datasets/seattle-weather/exports/csv`)).text(),
    );
    expect(csv).to.have.length(json.length);
    const whole = json.filter((row) => DOUBLES.some((f) => Number.isInteger(row[f])));
    expect(whole.length).to.be.greaterThan(100);
    expect(csv.some((row) => DOUBLES.some((f) => row[f] === '0'))).to.equal(true);
    json.forEach((row, i) => {
      for (const field of DOUBLES)
        expect(csv[i]![field], `${i} ${field}`).to.equal(JSON.stringify(row[field]));
    });
  });

  it('writes whole computed numbers the same way', async () => {
    const query = new URLSearchParams({
      select: 'date, precipitation * 10 as tenfold, 4.0 as four',
      limit: '50',
    });
    const json = (await (
      await suite.server.get(`${V21}/catalog/datasets/seattle-weather/exports/json?${query.toString()}`)
    ).json()) as Record<string, number>[];
    const csv = csvRows(
      await (
        await suite.server.get(`${V21}/catalog/datasets/seattle-weather/exports/csv?${query.toString()}`)
      ).text(),
    );
    expect(csv.map((r) => [r.tenfold, r.four])).to.deep.equal(
      json.map((r) => [JSON.stringify(r.tenfold), JSON.stringify(r.four)]),
    );
    expect(csv[0]!.four).to.equal('4');
  });

  it('writes the doubles of the v1 download as the JSON export does', async () => {
    const json = (await (
      await suite.server.get(`${V21}/catalog/datasets/seattle-weather/exports/json`)
    ).json()) as Record<string, number>[];
    const v1 = csvRows(
      await (await suite.server.get('/api/records/1.0/download?dataset=seattle-weather')).text(),
    );
    expect(v1.map((r) => DOUBLES.map((f) => r[f]))).to.deep.equal(
      json.map((r) => DOUBLES.map((f) => JSON.stringify(r[f]))),
    );
  });
});
