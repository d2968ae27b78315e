// DuckDB locked down before it serves: only the portal's folders readable, no external access, no
// extension, the configuration frozen; a self-test of probes that must all fail proves it.
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteString } from '../../sql/quoting.js';

/**
 * Order matters (DuckDB's own guidance): allowed directories first, then external access
 * off, then the configuration locked, so no later statement can undo either.
 */
export async function lockDown(connection: DuckDBConnection, directories: readonly string[]): Promise<void> {
  // Fixed so that datetime semantics never depend on the host; a request's zone is applied in SQL.
  await connection.run(`SET GLOBAL TimeZone = 'UTC'`);
  const list = directories.map((d) => quoteString(path.resolve(d) + path.sep)).join(', ');
  await connection.run(`SET allowed_directories = [${list}]`);
  await connection.run('SET enable_external_access = false');
  await connection.run('SET lock_configuration = true');
  await checkLockdown(connection, directories);
}

/** Thrown at start when the lockdown does not hold: the server refuses to serve. */
export class LockdownError extends Error {}

/**
 * Probes that must all fail once locked: reading a file outside the allowed directories (by
 * every reader), listing one, loading or installing an extension, unlocking the configuration.
 * Any probe that succeeds stops the start.
 */
const PROBES = (outside: string): readonly string[] => [
  `SELECT * FROM read_text(${quoteString(outside)})`,
  `SELECT * FROM read_csv(${quoteString(outside)})`,
  `SELECT * FROM read_blob(${quoteString(outside)})`,
  `SELECT * FROM glob(${quoteString(path.join(path.dirname(outside), '*'))})`,
  `SELECT * FROM read_parquet('https://example.com/x.parquet')`,
  `INSTALL spatial`,
  `LOAD spatial`,
  `SET lock_configuration = false`,
  `SET enable_external_access = true`,
  `COPY (SELECT 1) TO ${quoteString(path.join(path.dirname(outside), 'duckportal-probe.csv'))}`,
];

/** Runs every probe on `connection`; throws LockdownError when one escapes. */
export async function checkLockdown(
  connection: DuckDBConnection,
  directories: readonly string[],
): Promise<void> {
  const allowed = directories.map((d) => path.resolve(d) + path.sep);
  const outside = ['/etc/hostname', '/etc/passwd', path.resolve('/proc/self/environ')].find(
    (file) => !allowed.some((dir) => file.startsWith(dir)),
  )!;
  for (const probe of PROBES(outside)) {
    const escaped = await connection.run(probe).then(
      () => true,
      () => false,
    );
    if (escaped) throw new LockdownError(`DuckDB lockdown self-test failed: \`${probe}\` succeeded`);
  }
}
