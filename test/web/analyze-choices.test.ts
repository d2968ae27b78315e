// The analyze tab in a real browser: the values the chart draws (read from the marks vega drew)
// are the API's group_by answer for the same filters, X axis and series; the API URL it shows
// answers the same; the choices live in the URL beside the filters; nothing leaves the origin.
import { expect } from 'chai';
import { useBrowserSuite } from '../helpers/browser.js';
import { drawnValues, near } from './analyze-marks.js';

const RECORDS = '/api/explore/v2.1/catalog/datasets/movies/records';
const ANALYZE = '/explore/dataset/movies/analyze/';

describe('web: the analyze tab, its choices and the API', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite();
  const api = async (query: string) => (await suite.server.json(`${RECORDS}?${query}`)).body;

  it("draws a field's groups with the API's avg and percentile, for a refine", async () => {
    const expected = await api(
      `refine=mpaa_rating:R&group_by=major_genre&limit=100&select=${encodeURIComponent('avg(imdb_rating) as a, percentile(us_gross, 90) as p')}`,
    );
    expect(expected.results.length).to.be.greaterThan(5);
    const page = await suite.browser.open(
      `${suite.server.base}${ANALYZE}?refine.mpaa_rating=R&x=major_genre&y=avg:imdb_rating&y=percentile:90:us_gross`,
    );
    const drawn = await drawnValues(page, 'Genres');
    expect(drawn.size).to.equal(expected.results.length);
    for (const row of expected.results) {
      const genre = row.major_genre ?? '(empty)';
      near(drawn.get(genre)?.get('Average of IMDB Rating'), row.a, `avg ${genre}`);
      near(drawn.get(genre)?.get('90th percentile of US Gross'), row.p, `p90 ${genre}`);
    }
    // vega-embed's actions menu (links to the online editor) is off.
    expect(await page.$('.vega-actions')).to.equal(null);
    await page.close();
  });

  it('draws year(date) with avg as columns, and its API URL answers what it drew', async () => {
    const expected = await api(`group_by=year(release_date)&select=avg(imdb_rating)&limit=1000`);
    const page = await suite.browser.open(
      `${suite.server.base}${ANALYZE}?x=release_date&x.level=year&y=avg:imdb_rating&chart=column`,
    );
    const drawn = await drawnValues(page, 'Release Date, by year');
    const years = expected.results.filter((row: any) => row['avg(imdb_rating)'] !== null);
    expect(years.length).to.be.greaterThan(50);
    for (const row of years) {
      near(
        drawn.get(String(row['year(release_date)']))?.get('Average of IMDB Rating'),
        row['avg(imdb_rating)'],
        `year ${row['year(release_date)']}`,
      );
    }
    const url = await page.$eval('#chart-url', (input) => (input as HTMLInputElement).value);
    expect(url.startsWith(`${suite.server.base}${RECORDS}?`)).to.equal(true);
    const viaUrl = await suite.server.json(url.slice(suite.server.base.length));
    expect(viaUrl.status).to.equal(200);
    expect(viaUrl.body.results.map((r: any) => [r.x, r.s0])).to.deep.equal(
      expected.results.map((r: any) => [r['year(release_date)'], r['avg(imdb_rating)']]),
    );
    await page.close();
  });

  it('keeps every choice in the URL, with the filters, operated with the keyboard at 375 px', async () => {
    const page = await suite.browser.open(`${suite.server.base}${ANALYZE}?refine.mpaa_rating=PG`, {
      width: 375,
      height: 800,
    });
    await drawnValues(page, 'Release Date');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(375);
    await page.select('.analyze-form select', 'running_time_min');
    await page.waitForSelector('.analyze-form input[type=number]');
    await page.focus('.analyze-form input[type=number]');
    await page.keyboard.type('30');
    await page.keyboard.press('Tab');
    await page.focus('input[name=chart][value=column]');
    await page.keyboard.press('ArrowRight'); // to "bar"
    await page.waitForFunction(() => new URL(location.href).searchParams.get('chart') === 'bar');
    const params = new URL(page.url()).searchParams;
    expect(params.get('x')).to.equal('running_time_min');
    expect(params.get('x.width')).to.equal('30');
    expect(params.get('refine.mpaa_rating')).to.equal('PG');
    const expected = await api(
      `refine=mpaa_rating:PG&group_by=${encodeURIComponent('range(running_time_min, 30)')}&select=count(*)&limit=100`,
    );
    const key = (row: any) => row['range(running_time_min, 30)'] ?? '(empty)';
    const drawn = await drawnValues(
      page,
      'Running Time min',
      `Running Time min: ${key(expected.results[0])};`,
    );
    expect(drawn.size).to.equal(expected.results.length);
    for (const row of expected.results) {
      expect(drawn.get(key(row))?.get('Count'), key(row)).to.equal(row['count(*)']);
    }
    // Removing the filter keeps the chart's choices.
    await page.click('.filters button');
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('refine.mpaa_rating'));
    expect(new URL(page.url()).searchParams.get('x.width')).to.equal('30');
    expect(new URL(page.url()).searchParams.get('chart')).to.equal('bar');
    await page.close();
  });

  it("shows the API's error for a where the API refuses, and draws again once it is removed", async () => {
    const page = await suite.browser.open(
      `${suite.server.base}${ANALYZE}?where=${encodeURIComponent('nope >')}`,
    );
    const error = await page.waitForSelector('.chart-panel .error');
    const answer = await suite.server.json(`${RECORDS}?where=${encodeURIComponent('nope >')}`);
    expect(await error!.evaluate((e) => e.textContent)).to.include(answer.body.message);
    expect(await page.$eval('.chart-panel .error button', (b) => b.textContent)).to.equal('Retry');
    expect(await page.$('.chart svg'), 'no chart beside the error').to.equal(null);
    await page.click('.filters button');
    await drawnValues(page, 'Release Date');
    await page.close();
  });
});
