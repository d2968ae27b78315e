// An in-memory DuckDB in UTC for the describe block that calls it: opened before its tests,
// closed after, its connection read through the returned holder once the tests run.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** The holder of a connection to a fresh in-memory DuckDB whose session time zone is UTC. */
export function useUtcDuckDB(): { readonly connection: DuckDBConnection } {
  let instance: DuckDBInstance | undefined;
  const holder = { connection: undefined as unknown as DuckDBConnection };
  before(async () => {
    instance = await DuckDBInstance.create(':memory:');
    holder.connection = await instance.connect();
    await holder.connection.run("SET TimeZone = 'UTC'");
  });
  after(() => {
    holder.connection?.closeSync();
    instance?.closeSync();
  });
  return holder;
}
