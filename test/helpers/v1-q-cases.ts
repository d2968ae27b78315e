// v1 q cases counted against plain DuckDB: each q's nhits on the sample portal must be the count of
// the same question written as a WHERE over the Parquet files (and not zero, so it tests something).
import { expect } from 'chai';
import type { SampleSuite } from './sample-portal.js';

/** q, dataset, and the WHERE of the same question in plain DuckDB SQL. */
export type QCase = readonly [q: string, dataset: string, where: string];

/** The nhits answer of a v1 record search of `q` (no rows asked). */
export async function v1Hits(suite: SampleSuite, dataset: string, q: string) {
  const query = new URLSearchParams({ dataset, q, rows: '0' }).toString();
  return suite.server.json(`/api/records/1.0/search/?${query}`);
}

/** One mocha test per case. */
export function countCases(suite: SampleSuite, cases: readonly QCase[]): void {
  for (const [q, dataset, where] of cases) {
    it(`${q}  ==  ${where.replace(/\s+/g, ' ')}`, async () => {
      const { status, body } = await v1Hits(suite, dataset, q);
      expect(status, JSON.stringify(body)).to.equal(200);
      const [row] = await suite.reference.rows(
        `SELECT count(*)::INTEGER AS n FROM "${dataset}" WHERE ${where}`,
      );
      expect(row!.n).to.be.greaterThan(0);
      expect(body.nhits).to.equal(row!.n);
    });
  }
}
