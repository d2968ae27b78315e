// A lazy Parquet reader over HTTP, as data journalists' tools read a file: hyparquet fetches the
// footer, then only the column chunks of the row group it reads, by Range requests. Counts the
// bytes the server sent for them (the tests and the bench's downloads section).
import { asyncBufferFromUrl, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';

/** What reading some columns of one row group cost, and what it read. */
export interface LazyRead {
  /** The file's size, its row groups' row counts. */
  readonly fileBytes: number;
  readonly groupRows: readonly number[];
  /** The row group read. */
  readonly group: number;
  /** Body bytes and requests the reader took (a HEAD for the size included). */
  readonly bytes: number;
  readonly requests: number;
  readonly rows: readonly Record<string, unknown>[];
  /** The index of the first row read in the file. */
  readonly rowStart: number;
}

/**
 * Reads `columns` of row group `which` (or the one `which` picks from the row groups' row counts)
 * of the Parquet file at `url` by Range requests.
 */
export async function readRowGroupLazily(
  url: string,
  columns: readonly string[],
  which: number | ((groupRows: readonly number[]) => number),
  headers: Record<string, string> = {},
): Promise<LazyRead> {
  let bytes = 0;
  let requests = 0;
  const counting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    requests++;
    const body = Buffer.from(await response.arrayBuffer());
    bytes += body.length;
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const file = await asyncBufferFromUrl({ url, fetch: counting, requestInit: { headers } });
  const metadata = await parquetMetadataAsync(file);
  const groupRows = metadata.row_groups.map((g) => Number(g.num_rows));
  const group = typeof which === 'number' ? which : which(groupRows);
  const rowStart = groupRows.slice(0, group).reduce((a, b) => a + b, 0);
  const rows = await parquetReadObjects({
    file,
    metadata,
    columns: [...columns],
    rowStart,
    rowEnd: rowStart + groupRows[group]!,
  });
  return { fileBytes: file.byteLength, groupRows, group, bytes, requests, rows, rowStart };
}
