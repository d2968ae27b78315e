// The first rows of a staged dataset's data.parquet, for a preview before it is published (the
// account page's Datasets tab): SQL stays in ingest, where the file's layout is known.
import { quoteIdentifier, quoteString } from '../sql/quoting.js';
import { withWorkConnection } from './work-connection.js';

/** The first `limit` rows of `columns` in the Parquet file `dataPath`, as JSON values. */
export async function firstRows(
  dataPath: string,
  columns: readonly string[],
  limit: number,
): Promise<unknown[][]> {
  const select = columns.map(quoteIdentifier).join(', ');
  return withWorkConnection(async (connection) => {
    const reader = await connection.runAndReadAll(
      `SELECT ${select} FROM read_parquet(${quoteString(dataPath)}) LIMIT ${Math.floor(limit)}`,
    );
    return reader.getRowsJson();
  });
}
