// Streaming discipline of the formats JS writes: a client gone mid-export stops the query and
// frees its connection; shapefile temp files are removed; gzip wraps every format.
import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { runningStreams } from '../../src/exports/query-stream.js';
import { openShapefiles } from '../../src/exports/shapefile-format.js';
import { dropAfter, settle } from '../helpers/downloads.js';
import { useSampleSuite } from '../helpers/sample-portal.js';

const EXPORTS = '/api/explore/v2.1/catalog/datasets';

describe('streamed exports: disconnects, temp files, gzip', () => {
  const suite = useSampleSuite();

  for (const format of ['turtle', 'arrow', 'rdfxml']) {
    it(`${format}: a client leaving mid-export of 3M flights stops the query and frees the connection`, async () => {
      await dropAfter(`${suite.server.base}${EXPORTS}/flights/exports/${format}`, 1 << 20);
      await settle(() => runningStreams === 0);
      expect(runningStreams).to.equal(0);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => suite.server.json(`${EXPORTS}/flights/records?limit=0`)),
      );
      expect(answers.every((a) => a.body.total_count === 3_000_000)).to.equal(true);
    });
  }

  it('shp: the temp files are gone once the zip is sent', async () => {
    const response = await suite.server.get(`${EXPORTS}/earthquakes/exports/shp`);
    expect(response.status).to.equal(200);
    await response.arrayBuffer();
    await settle(() => openShapefiles.size === 0);
    expect(openShapefiles.size).to.equal(0);
    const spill = await readdir(suite.server.portal.services.engine.tempDirectory);
    expect(spill.filter((f) => f.startsWith('export-'))).to.deep.equal([]);
  });

  it('gzips formats written by JS as well (geojson with epsg, kml)', async () => {
    for (const [format, params] of [
      ['geojson', 'epsg=3857&'],
      ['kml', ''],
    ]) {
      const response = await suite.server.get(
        `${EXPORTS}/airports/exports/${format}?${params}compressed=true`,
      );
      expect(response.headers.get('content-disposition')).to.include(`.${format}.gz`);
      const text = gunzipSync(Buffer.from(await response.arrayBuffer())).toString('utf8');
      if (format === 'geojson') expect(JSON.parse(text).features).to.have.length(3376);
      else expect(text.match(/<Placemark>/g)).to.have.length(3376);
    }
  });
});
