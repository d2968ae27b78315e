// One query cannot take the machine: the duckportal process, serving the sample portal at DuckDB's
// default limit of 384MB, stays under that limit plus 512 MB whatever a query asks (README,
// "Access control and limits"). Peak memory is the process's own VmHWM, read from /proc.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../helpers/ports.js';
import { SAMPLE_PORTAL, openReference } from '../helpers/sample-portal.js';

const CLI = path.resolve('bin/duckportal.cjs');
/** DuckDB's limit (384MB, in MiB) plus the allowance the README states. */
const BOUND_MIB = 384 + 512;

interface ServedProcess {
  readonly child: ChildProcess;
  readonly base: string;
}

async function serve(): Promise<ServedProcess> {
  const port = await freePort();
  const child = spawn(CLI, ['serve', '--portal', SAMPLE_PORTAL, '--port', String(port), '--threads', '2'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  // stdout is read to its end (the server logs a line per request): a closed pipe would fail
  // its writes.
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  const started = () => output.includes('datasets on http://');
  while (!started() && child.exitCode === null) await once(child.stdout, 'data');
  if (!started()) throw new Error(`the server did not start: ${output}`);
  return { child, base: `http://127.0.0.1:${port}` };
}

const statusMib = async (pid: number, line: 'VmHWM' | 'VmRSS'): Promise<number> => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${line}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
};

/**
 * Sends one query and returns its status and the process's peak RSS after it. The process is
 * killed as soon as it passes the bound, so that a regression fails quickly instead of taking
 * gigabytes of a shared machine.
 */
async function peakOf(served: ServedProcess, query: string): Promise<{ status: number; peakMib: number }> {
  const pid = served.child.pid!;
  let passed = false;
  const watch = setInterval(() => {
    void statusMib(pid, 'VmRSS').then(
      (rss) => {
        if (rss > BOUND_MIB && !passed) {
          passed = true;
          served.child.kill('SIGKILL');
        }
      },
      () => undefined,
    );
  }, 20);
  try {
    const response = await fetch(`${served.base}/api/explore/v2.1/catalog/datasets/flights/records?${query}`);
    await response.arrayBuffer();
    return { status: response.status, peakMib: await statusMib(pid, 'VmHWM') };
  } catch (error) {
    if (passed) return { status: 0, peakMib: Infinity };
    throw error;
  } finally {
    clearInterval(watch);
  }
}

const params = (entries: Record<string, string>): string => new URLSearchParams(entries).toString();
const percentiles = (field: string, from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `percentile(${field}, ${from + i}) as p${from + i}`);

describe('memory bound of one query (a server process over the sample portal)', function () {
  this.timeout(120_000);
  let served: ServedProcess;

  beforeEach(async () => {
    served = await serve();
  });
  afterEach(async () => {
    if (served.child.exitCode === null && served.child.signalCode === null) {
      served.child.kill('SIGTERM');
      await once(served.child, 'exit');
    }
  });

  it('answers 99 percentiles of one field by origin over 3M flights within the bound, exactly', async () => {
    const query = params({
      select: percentiles('delay', 1, 99).join(', '),
      group_by: 'origin',
      limit: '300',
    });
    const { status, peakMib } = await peakOf(served, query);
    expect(peakMib, `peak ${peakMib.toFixed(0)} MiB`).to.be.below(BOUND_MIB);
    expect(status).to.equal(200);
    const response = await fetch(
      `${served.base}/api/explore/v2.1/catalog/datasets/flights/records?${params({
        select: 'percentile(delay, 7) as p7, median(delay) as p50, percentile(delay, 99) as p99',
        group_by: 'origin',
        order_by: 'origin',
        limit: '3',
      })}`,
    );
    const body = (await response.json()) as { results: Record<string, unknown>[] };
    const reference = await openReference();
    try {
      const expected = await reference.rows(
        `SELECT origin, quantile_cont(delay, 0.07) AS p7, quantile_cont(delay, 0.5) AS p50, quantile_cont(delay, 0.99) AS p99 FROM flights GROUP BY origin ORDER BY origin LIMIT 3`,
      );
      expect(body.results).to.deep.equal(expected);
    } finally {
      reference.close();
    }
  });

  // The costliest query accepted, grouped by date, origin, destination and delay (one group per
  // flight), peaked at 683 MiB but takes 24 s on 2 cores; 213k groups by date show the same bound.
  it('answers two percentile fields over 213k groups within the bound', async () => {
    const query = params({
      select: 'median(delay) as d, percentile(distance, 90) as p',
      group_by: 'date',
      limit: '5',
    });
    const { status, peakMib } = await peakOf(served, query);
    expect(peakMib, `peak ${peakMib.toFixed(0)} MiB`).to.be.below(BOUND_MIB);
    expect(status).to.equal(200);
  });

  it('refuses, with a 400 naming the cap, more holistic states than the bound allows', async () => {
    const fields = ['delay', 'distance', 'delay + 1', 'distance + 1', 'delay * 2'];
    const many = await fetch(
      `${served.base}/api/explore/v2.1/catalog/datasets/flights/records?${params({
        select: fields.map((f, i) => `median(${f}) as m${i}`).join(', '),
        group_by: 'origin',
      })}`,
    );
    expect(many.status).to.equal(400);
    const refused = (await many.json()) as { error_code: string; message: string };
    expect(refused.error_code).to.equal('QueryLangError');
    expect(refused.message).to.include('at most 4 per query');
    const threeMedians = (groupBy: string) =>
      peakOf(
        served,
        params({
          select: fields
            .slice(0, 3)
            .map((f, i) => `median(${f}) as m${i}`)
            .join(', '),
          group_by: groupBy,
        }),
      );
    // Three states over up to one group per flight: 3 x 3M x (14 + 48) bytes, past the budget.
    const costly = await threeMedians('date, origin, destination, delay');
    expect(costly.status).to.equal(400);
    expect(costly.peakMib).to.be.below(BOUND_MIB);
    // The same three by origin: the distinct origins measured at ingest bound the groups.
    const byOrigin = await threeMedians('origin');
    expect(byOrigin.status).to.equal(200);
    expect(byOrigin.peakMib).to.be.below(BOUND_MIB);
  });
});
