// The JavaScript tokenizer (src/text-tokens.ts, the catalog's) cuts every text as DuckDB's SQL
// tokenizer (src/search/tokens.ts, the datasets' index and the scan) does: a catalog search and a
// dataset search agree on what a word is.
import { expect } from 'chai';
import { textTokens } from '../../src/text-tokens.js';
import { tokensSql } from '../../src/search/tokens.js';
import { quoteString } from '../../src/sql/quoting.js';
import { FixtureDb } from './fixture-db.js';

const TEXTS = [
  'Daily weather in Seattle, 2012-2015 (copy 1)',
  '<p>One row per day: <em>drizzle, rain</em></p> https://www.ncdc.noaa.gov/cdo-web/x?y=1',
  'Données équipements Île-de-France, CAFÉ crème brûlée',
  'Straße ÆØÅ æøå ŒUVRE œuvre ﬁnance Ǆ ǅ ǆ',
  'ΟΔΟΣ Οδός σοφίας ΣΊΣΥΦΟΣ',
  'İstanbul ISTANBUL ıi İİ',
  'Москва Ёлка ёлка',
  '東京都 データ 서울 데이터',
  'e\u0301te\u0301 a\u0308 n\u0303 already-composed é',
  'العربية ١٢٣ ٤٥ देवनागरी हिन्दी',
  '½ ² ³ ⅷ Ⅻ ① 𝟘𝟙 ＡＢＣ ｆｕｌｌ',
  'emoji 😀 mixed a😀b tab\there new\nline',
  '  leading and trailing  ',
  '',
  'ǰ ẞ ꞵ Ꞵ ſ K Å ȺȾ',
];

describe('text tokens (JavaScript) against the SQL tokenizer', () => {
  let db: FixtureDb;
  before(async () => {
    db = await FixtureDb.create();
  });
  after(() => db.close());

  for (const text of TEXTS) {
    it(`cuts ${JSON.stringify(text).slice(0, 40)} alike`, async () => {
      const [row] = await db.rows(
        `SELECT list_filter(${tokensSql(quoteString(text))}, lambda t: t <> '') AS tokens`,
      );
      expect(textTokens(text)).to.deep.equal(row!.tokens);
    });
  }
});
