// date_format() executed in DuckDB: every symbol in French and English, spot checks in other languages, quoting, errors.
import { expect } from 'chai';
import { QueryLangError } from '../../src/odsql/errors.js';
import { compileDateFormat } from '../../src/odsql/dialect/duckdb/date-format.js';
import { LANGS, type Lang } from '../../src/odsql/functions/date.js';
import { DATE_NAMES, resolvedLocale } from '../../src/odsql/functions/date-names.js';
import { openDateDb, rowsOf, type DateDb } from './date-db.js';

// Sunday 2021-01-03 08:05:09 in Paris: ISO week 53 of week-year 2020.
const SUNDAY = "TIMESTAMPTZ '2021-01-03 07:05:09+00'";

describe('date_format()', () => {
  let db: DateDb;
  before(async () => {
    db = await openDateDb();
  });
  after(() => db.close());

  const format = (sql: string, pattern: string, lang: Lang = 'fr', timezone = 'Europe/Paris') =>
    db.text(compileDateFormat(sql, pattern, 'datetime', lang, timezone));

  it('formats every numeric symbol on the wall clock of the request time zone', async () => {
    const expected: Record<string, string> = {
      yy: '21',
      YY: '21',
      yyyy: '2021',
      YYYY: '2021',
      xx: '20',
      xxxx: '2020',
      w: '53',
      ww: '53',
      e: '7',
      D: '3',
      DDD: '003',
      M: '1',
      MM: '01',
      d: '3',
      dd: '03',
      H: '8',
      HH: '08',
      m: '5',
      mm: '05',
      s: '9',
      ss: '09',
    };
    for (const [symbol, text] of Object.entries(expected)) {
      expect(await format(SUNDAY, symbol), symbol).to.equal(text);
    }
  });

  it('pads what the padded symbols pad and leaves the others alone', async () => {
    // Wednesday 2021-02-03 in Paris: ISO week 5, day of year 34.
    const day = "TIMESTAMPTZ '2021-02-03 12:00:00+00'";
    expect(await format(day, 'w|ww|D|DDD|e')).to.equal('5|05|34|034|3');
    const late = "TIMESTAMPTZ '2021-12-30 22:58:59+00'"; // 23:58:59 in Paris, day 364
    expect(await format(late, 'D DDD H:m:s xxxx-ww')).to.equal('364 364 23:58:59 2021-52');
  });

  it('names days and months in French and English', async () => {
    expect(await format(SUNDAY, 'E EEEE MMMM', 'fr')).to.equal('dim. dimanche janvier');
    expect(await format(SUNDAY, 'E EEEE MMMM', 'en')).to.equal('Sun Sunday January');
    const week = [
      '2021-08-02',
      '2021-08-03',
      '2021-08-04',
      '2021-08-05',
      '2021-08-06',
      '2021-08-07',
      '2021-08-08',
    ];
    const rows = rowsOf(week.map((d) => `TIMESTAMPTZ '${d} 12:00:00+00'`));
    const names = (lang: Lang) =>
      db.texts(compileDateFormat('x', 'E/EEEE/MMMM', 'datetime', lang, 'UTC'), rows);
    expect(await names('fr')).to.deep.equal([
      'lun./lundi/août',
      'mar./mardi/août',
      'mer./mercredi/août',
      'jeu./jeudi/août',
      'ven./vendredi/août',
      'sam./samedi/août',
      'dim./dimanche/août',
    ]);
    expect(await names('en')).to.deep.equal([
      'Mon/Monday/August',
      'Tue/Tuesday/August',
      'Wed/Wednesday/August',
      'Thu/Thursday/August',
      'Fri/Friday/August',
      'Sat/Saturday/August',
      'Sun/Sunday/August',
    ]);
    const months = rowsOf(
      Array.from({ length: 12 }, (_, m) => `DATE '2021-${String(m + 1).padStart(2, '0')}-10'`),
    );
    expect(await db.texts(compileDateFormat('x', 'MMMM', 'date', 'fr', 'UTC'), months)).to.deep.equal([
      'janvier',
      'février',
      'mars',
      'avril',
      'mai',
      'juin',
      'juillet',
      'août',
      'septembre',
      'octobre',
      'novembre',
      'décembre',
    ]);
  });

  it('names days and months in German, Arabic and Basque', async () => {
    expect(await format(SUNDAY, 'EEEE d. MMMM yyyy', 'de')).to.equal('Sonntag 3. Januar 2021');
    expect(await format(SUNDAY, 'EEEE d MMMM', 'ar')).to.equal('الأحد 3 يناير');
    expect(await format(SUNDAY, 'yyyy MMMM d, EEEE', 'eu')).to.equal('2021 urtarrila 3, igandea');
  });

  it('has distinct ICU names for all eleven languages', () => {
    for (const lang of LANGS) {
      expect(resolvedLocale(lang), lang).to.equal(lang);
      const names = DATE_NAMES[lang];
      expect(new Set(names.months).size, lang).to.equal(12);
      expect(new Set(names.weekdays).size, lang).to.equal(7);
      expect(new Set(names.weekdaysShort).size, lang).to.equal(7);
      if (lang !== 'en') expect(names.months, lang).not.to.deep.equal(DATE_NAMES.en.months);
    }
    expect(LANGS).to.have.length(11);
  });

  it('keeps quoted free text, doubled quotes and separators', async () => {
    expect(await format(SUNDAY, "EEEE d MMMM yyyy 'à' HH'h'mm")).to.equal('dimanche 3 janvier 2021 à 08h05');
    expect(await format(SUNDAY, "dd/MM/yyyy 'l''an' ''")).to.equal("03/01/2021 l'an '");
    expect(await format(SUNDAY, 'yyyy?MM,dd.HH:mm-ss')).to.equal('2021?01,03.08:05-09');
    expect(await format(SUNDAY, "'yyyy = ' yyyy")).to.equal('yyyy =  2021');
    expect(await format(SUNDAY, "'100% sure %Y' yy")).to.equal('100% sure %Y 21');
    expect(await format(SUNDAY, "'''quoted'''")).to.equal("'quoted'");
  });

  it('reads datetimes in the request time zone: the last UTC hour of a year is already next year in Paris', async () => {
    const instant = "TIMESTAMPTZ '2020-12-31 23:30:00+00'";
    expect(await format(instant, 'yyyy-MM-dd HH:mm', 'fr', 'UTC')).to.equal('2020-12-31 23:30');
    expect(await format(instant, 'yyyy-MM-dd HH:mm', 'fr', 'Europe/Paris')).to.equal('2021-01-01 00:30');
    expect(await format(instant, 'yyyy-MM-dd HH:mm', 'fr', 'America/New_York')).to.equal('2020-12-31 18:30');
    // Summer time: +02:00 in Paris.
    expect(await format("TIMESTAMPTZ '2021-07-01 10:00:00+00'", 'HH:mm')).to.equal('12:00');
  });

  it('formats dates at midnight and keeps null for null, even for a pattern without symbols', async () => {
    const date = (sql: string, pattern: string) =>
      db.text(compileDateFormat(sql, pattern, 'date', 'fr', 'Asia/Tokyo'));
    expect(await date("DATE '2021-01-03'", 'dd/MM/yyyy HH:mm:ss EEEE')).to.equal(
      '03/01/2021 00:00:00 dimanche',
    );
    expect(await date('CAST(NULL AS DATE)', 'yyyy MMMM')).to.equal(null);
    expect(await date('CAST(NULL AS DATE)', "'fixed'")).to.equal(null);
    expect(await date("DATE '2021-01-03'", "'fixed'")).to.equal('fixed');
    expect(await date("DATE '2021-01-03'", '')).to.equal('');
  });

  it('refuses unknown symbols and unterminated quotes', () => {
    const cases: [string, RegExp][] = [
      ['yyy', /^Unknown date format symbol: yyy$/],
      ['MMM', /MMM/],
      ['EE', /EE/],
      ['dddd', /dddd/],
      ['y', /: y$/],
      ['hh:mm', /: hh$/],
      ['yyyy Q', /: Q$/],
      ["yyyy 'open", /^Unterminated quoted text in date format: yyyy 'open$/],
    ];
    for (const [pattern, message] of cases) {
      expect(() => compileDateFormat('x', pattern, 'date', 'fr', 'UTC'), pattern)
        .to.throw(QueryLangError)
        .with.property('message')
        .that.matches(message);
    }
  });
});
