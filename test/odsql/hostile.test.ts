// Hostile input, in three steps: a clean QueryLangError, or one escaped SELECT that runs without side effect.
import { expect } from 'chai';
import { compileQuery, QueryLangError, type QueryParams } from '../../src/odsql/index.js';
import { openFixture, SOURCE, type Fixture } from './fixture.js';

/** What a hostile query became: rejected, or compiled to SQL that was run. */
type Outcome = { rejected: QueryLangError } | { sql: string; rows: Record<string, unknown>[] };

describe('ODSQL hostile input', () => {
  let fixture: Fixture;
  before(async () => {
    fixture = await openFixture();
  });
  after(async () => fixture.close());

  /**
   * Compiles `params`; when it compiles, checks that DuckDB sees exactly one statement, a
   * SELECT, and runs it. Anything but a QueryLangError or a clean run fails the test.
   */
  async function attempt(params: QueryParams): Promise<Outcome> {
    let sql: string;
    try {
      ({ sql } = compileQuery(SOURCE, params));
    } catch (error) {
      expect(error, String(error)).to.be.instanceOf(QueryLangError);
      return { rejected: error as QueryLangError };
    }
    const statements = await fixture.engine.withConnection((c) => c.extractStatements(sql));
    expect(statements.count).to.equal(1);
    expect(sql.startsWith('SELECT ')).to.equal(true);
    return { sql, rows: await fixture.rows(params) };
  }

  async function rejected(params: QueryParams): Promise<string> {
    const outcome = await attempt(params);
    if (!('rejected' in outcome)) throw new Error(`compiled: ${outcome.sql}`);
    return outcome.rejected.problem;
  }

  async function ran(params: QueryParams): Promise<{ sql: string; rows: Record<string, unknown>[] }> {
    const outcome = await attempt(params);
    if ('rejected' in outcome) throw new Error(`rejected: ${outcome.rejected.message}`);
    return outcome;
  }

  afterEach(async () => {
    // No statement may have changed the data: every record is still there.
    expect(await fixture.count({})).to.equal(6);
  });

  describe('quotes and backslashes inside literals are data', () => {
    it("a quote escaped with a backslash stays inside the string ('x\\' OR 1=1 --')", async () => {
      const { sql, rows } = await ran({ select: 'n', where: ["name = 'x\\' OR 1=1 --'"] });
      expect(sql).to.include(`'x'' OR 1=1 --'`);
      expect(rows).to.deep.equal([]);
    });

    it('double quotes, doubled quotes and backslashes', async () => {
      expect((await ran({ select: 'n', where: ['name = "x\\" OR \\"1\\"=\\"1"'] })).rows).to.deep.equal([]);
      expect((await ran({ select: 'n', where: ["name = 'O\\'Brien \\\\ back'"] })).rows).to.deep.equal([
        { n: 50 },
      ]);
      expect(await rejected({ where: ["name = 'x'' OR 1=1 --'"] })).to.match(/^unexpected/);
    });

    it('a literal that looks like SQL, in every literal position', async () => {
      const evil = "'); DROP TABLE things; --";
      const quoted = `'${evil.replaceAll("'", "\\'")}'`;
      for (const params of [
        { select: 'n', where: [`name = ${quoted}`] },
        { select: 'n', where: [`name in (${quoted}, 'b')`] },
        { select: 'n', where: [`${quoted} in tags`] },
        { select: 'n', where: [`search(name, ${quoted})`] },
        { select: 'n', where: [`startswith(name, ${quoted})`] },
        { select: `ifnull(name, ${quoted}) as v` },
        { select: `json_format(j, ${quoted}) as v` },
        { select: `date_format(d, ${quoted}) as v` },
      ] as QueryParams[]) {
        const outcome = await attempt(params);
        // search() splits and normalizes its text, date_format() reads its own quoting; the others keep it as is.
        const verbatim = !/search|date_format/.test(JSON.stringify(params));
        if ('sql' in outcome && verbatim) expect(outcome.sql).to.include(`'''); DROP TABLE things; --'`);
      }
    });

    it('a NUL character is refused', async () => {
      expect(await rejected({ where: ["name = 'a\0b'"] })).to.equal('NUL character in query');
    });
  });

  describe('names', () => {
    it('a back-quoted name is looked up, never written into SQL', async () => {
      expect(await rejected({ where: ['`n"; DROP TABLE things; --` = 1'] })).to.equal(
        'Unknown field: n"; DROP TABLE things; --',
      );
      expect(await rejected({ select: '`_recordid`' })).to.equal('Unknown field: _recordid');
    });

    it('a label is quoted as an identifier and comes back as the key, as written', async () => {
      const label = 'a"; DROP TABLE things; --';
      const { rows } = await ran({ select: `n as \`${label}\``, where: ['n = 1'] });
      expect(rows).to.deep.equal([{ [label]: 1 }]);
      const grouped = await ran({ groupBy: `ok as \`x") FROM things; --\``, select: 'count(*) as c' });
      expect(grouped.rows.map((r) => r['x") FROM things; --'])).to.deep.equal([false, true, null]);
    });

    it("DuckDB's own functions are not ODSQL functions", async () => {
      for (const name of [
        'read_csv',
        'read_text',
        'read_parquet',
        'glob',
        'getenv',
        'query',
        'duckdb_settings',
        'pragma_version',
      ]) {
        expect(await rejected({ select: `${name}('/etc/passwd')` })).to.match(
          new RegExp(`^Unknown function: ${name}`),
        );
        expect(await rejected({ where: [`${name}('x') = 1`] })).to.match(
          new RegExp(`^Unknown function: ${name}`),
        );
      }
    });

    it("DuckDB's function names as field names are unknown fields", async () => {
      for (const name of ['read_csv', 'read_text', 'glob', 'getenv', 'current_setting']) {
        expect(await rejected({ select: name })).to.equal(`Unknown field: ${name}`);
        expect(await rejected({ where: [`${name} = 'x'`] })).to.equal(`Unknown field: ${name}`);
        expect(await rejected({ orderBy: name })).to.equal(`Unknown field: ${name}`);
      }
    });
  });

  describe('SQL syntax is not ODSQL syntax', () => {
    it('a statement separator is a syntax error', async () => {
      expect(await rejected({ where: ['n = 1; DROP TABLE things'] })).to.equal(
        'unexpected ; at position 5 in n = 1; DROP TABLE things',
      );
      expect(await rejected({ select: 'n; SELECT 42' })).to.match(/^unexpected ;/);
    });

    it('-- and /* */ are not comments', async () => {
      expect(await rejected({ where: ['n = 1 -- and n = 2'] })).to.match(/^unexpected and|Unknown field/);
      expect(await rejected({ where: ['n = 1 /* x */'] })).to.match(/^unexpected/);
      expect(await rejected({ select: 'n /* */, name' })).to.match(/^unexpected/);
    });

    it('double minus is two minus signs, never a comment in the SQL', async () => {
      const { sql, rows } = await ran({ select: 'n - -1 as v', where: ['n = 1'] });
      expect(sql).not.to.include('--');
      expect(rows).to.deep.equal([{ v: 2 }]);
    });

    it('SQL keywords and casts are not accepted', async () => {
      expect(await rejected({ where: ['n::VARCHAR = 1'] })).to.match(/^unexpected :/);
      expect(await rejected({ select: 'n UNION SELECT 1' })).to.match(/^unexpected/);
      expect(await rejected({ where: ['CASE WHEN n = 1 THEN true END'] })).to.match(
        /^unexpected|Unknown field/,
      );
    });
  });

  describe('size', () => {
    it('very long and very deep inputs are clean errors', async () => {
      expect(await rejected({ where: [`${'('.repeat(5000)}n${')'.repeat(5000)}`] })).to.match(
        /too deeply nested/,
      );
      expect(await rejected({ where: [`${'not '.repeat(5000)} ok`] })).to.match(/too deeply nested/);
      expect(await rejected({ where: [Array.from({ length: 20_000 }, () => 'ok').join(' or ')] })).to.match(
        /too long|too complex/,
      );
      expect(
        await rejected({ where: [`n in (${Array.from({ length: 5000 }, (_, i) => i).join(',')})`] }),
      ).to.match(/too long/);
      expect(await rejected({ where: [`name = '${'x'.repeat(200_000)}'`] })).to.match(/too long/);
      expect(await rejected({ where: [`'${"\\'".repeat(60_000)}`] })).to.match(/too long|unexpected/);
    });

    it('a wide but legal query runs', async () => {
      const list = Array.from({ length: 1000 }, (_, i) => `'v${i}'`).join(',');
      expect((await ran({ select: 'n', where: [`name in (${list}) or n = 1`] })).rows).to.deep.equal([
        { n: 1 },
      ]);
      const ors = Array.from({ length: 600 }, (_, i) => `n = ${i}`).join(' or ');
      expect((await ran({ select: 'n', where: [ors], orderBy: 'n' })).rows.map((r) => r.n)).to.deep.equal([
        1, 10, 25, 50, 100,
      ]);
    });
  });
});
