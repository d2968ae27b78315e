// quote_all on CSV exports "quotes all strings" (explore-api.md): texts, dates and lists are
// quoted, numbers and booleans are not; the values read back equal DuckDB's over the Parquet.
import { expect } from 'chai';
import { useSampleSuite } from '../helpers/sample-portal.js';

describe('CSV quote_all (sample portal)', () => {
  const suite = useSampleSuite();

  const csv = async (params: Record<string, string>): Promise<string[]> => {
    const query = new URLSearchParams({ with_bom: 'false', ...params }).toString();
    const response = await suite.server.get(`/api/explore/v2.1/catalog/datasets/movies/exports/csv?${query}`);
    const text = await response.text();
    expect(response.status, text).to.equal(200);
    return text.trimEnd().split('\n');
  };
  const SELECT = 'title, worldwide_gross, imdb_rating, release_date, major_genre, imdb_rating > 7 as good';

  it('quotes strings only: numbers and booleans stay bare', async () => {
    const lines = await csv({ select: SELECT, where: "title = 'Titanic'", quote_all: 'true' });
    const [row] = await suite.reference.rows(
      `SELECT '"Titanic";' || worldwide_gross || ';' || imdb_rating || ';"' || strftime(release_date, '%Y-%m-%d')
         || '";"' || array_to_string(major_genre, ',') || '";' || (imdb_rating > 7) AS line
       FROM movies WHERE title = 'Titanic'`,
    );
    expect(lines).to.deep.equal([
      '"title";worldwide_gross;imdb_rating;"release_date";"major_genre";good',
      row!.line,
    ]);
  });

  it('without quote_all, only cells that need it are quoted', async () => {
    const lines = await csv({ select: 'title, worldwide_gross', where: "title = 'Titanic'" });
    expect(lines[1]).to.match(/^Titanic;\d+$/);
  });
});
