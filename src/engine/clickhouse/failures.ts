// ClickHouse's failures as the engine's errors, by the code in ClickHouse's text (never the text:
// it may quote data, hosts and ports). ClickHouse 18.16 answers a failure before its first byte
// with an error status; a failure after it (a query killed, a shard lost mid-result, a limit hit)
// is written at the end of a 200 answer as the same text, `Code: N, e.displayText() = ...,
// e.what() = DB::...`, and the answer ends as a complete one would. checkedBody finds that trailer
// so that the reader sees an error instead of rows.
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import {
  EngineSaturated,
  EngineUnavailable,
  QueryInterrupted,
  QueryOutOfMemory,
  QueryStoppedByServer,
} from '../engine.js';

/** Thrown when ClickHouse refused or failed a query: its error code, never its text (it may quote data). */
export class ClickHouseQueryFailed extends Error {
  constructor(readonly code: number) {
    super(`ClickHouse failed the query (code ${code})`);
  }
}

/** The seconds a client told "unavailable" or "stopped" may wait before trying again. */
export const RETRY_SECONDS = 5;

const partDown = (): Error => new EngineUnavailable(RETRY_SECONDS, true);
const limit = (): Error => new QueryStoppedByServer('limit', RETRY_SECONDS);

/**
 * ClickHouse's codes (dbms/src/Common/ErrorCodes.cpp of 18.16) that the engine's own errors stand
 * for; any other code is a ClickHouseQueryFailed (an answer the portal did not expect: a 500).
 */
const KNOWN_CODES: ReadonlyMap<number, () => Error> = new Map<number, () => Error>([
  [241, () => new QueryOutOfMemory()], // MEMORY_LIMIT_EXCEEDED
  [173, () => new QueryOutOfMemory()], // CANNOT_ALLOCATE_MEMORY
  [394, () => new QueryStoppedByServer('cancelled', RETRY_SECONDS)], // QUERY_WAS_CANCELLED
  [158, limit], // TOO_MANY_ROWS (max_rows_to_read, max_result_rows...)
  [159, limit], // TIMEOUT_EXCEEDED (max_execution_time)
  [160, limit], // TOO_SLOW (min_execution_speed)
  [191, limit], // SET_SIZE_LIMIT_EXCEEDED
  [201, limit], // QUOTA_EXPIRED
  [290, limit], // LIMIT_EXCEEDED
  [307, limit], // TOO_MANY_BYTES
  [396, limit], // TOO_MANY_ROWS_OR_BYTES
  [202, () => new EngineSaturated(RETRY_SECONDS)], // TOO_MANY_SIMULTANEOUS_QUERIES
  // A server of the cluster behind the one asked (a shard, a replica) is down, unreachable or
  // lost mid-query, or every replica of a shard lags past max_replica_delay_for_distributed_queries.
  [32, partDown], // ATTEMPT_TO_READ_AFTER_EOF
  [33, partDown], // CANNOT_READ_ALL_DATA
  [95, partDown], // CANNOT_READ_FROM_SOCKET
  [96, partDown], // CANNOT_WRITE_TO_SOCKET
  [198, partDown], // DNS_ERROR
  [203, partDown], // NO_FREE_CONNECTION
  [209, partDown], // SOCKET_TIMEOUT
  [210, partDown], // NETWORK_ERROR
  [225, partDown], // NO_ZOOKEEPER
  [254, partDown], // NO_ACTIVE_REPLICAS
  [265, partDown], // NO_AVAILABLE_REPLICA
  [279, partDown], // ALL_CONNECTION_TRIES_FAILED
  [285, partDown], // TOO_LESS_LIVE_REPLICAS
  [297, partDown], // SHARD_HAS_NO_CONNECTIONS
  [369, partDown], // ALL_REPLICAS_ARE_STALE
  [415, partDown], // ALL_REPLICAS_LOST
  [999, partDown], // KEEPER_EXCEPTION
]);

/** The error of a ClickHouse failure's text (an error answer's body, or a 200 answer's trailer). */
export function failureOf(text: string): Error {
  const code = Number(/Code: (\d+), e\.displayText\(\) = /.exec(text)?.[1] ?? 0);
  return KNOWN_CODES.get(code)?.() ?? new ClickHouseQueryFailed(code);
}

/**
 * Whether a 200 answer's text ends with ClickHouse's failure instead of its result's end (a last
 * row of one text column that reads exactly so would be taken for one: the answer is cut).
 */
export function hasTrailer(text: string): boolean {
  return /Code: \d+, e\.displayText\(\) = [\s\S]*, e\.what\(\) = [\w:]+\n?$/.test(text);
}

/** Where a failure written after rows starts: rows of every streamed format end with a newline. */
const MARK = Buffer.from('\nCode: ');
/** The longest trailer looked for (a shard's failure lists each connection tried: some 500 bytes). */
const MAX_TRAILER = 64 * 1024;
/**
 * The bytes passed on at once. ClickHouse 18.16 writes its HTTP answer in chunks of 4 KB (22,000
 * for the 88 MB of the flights' CSV), and each chunk cost the readers after it (the CSV rewrite, the
 * pipe to DuckDB's Parquet encoder, V8's collector) more than its bytes: joined into 256 KB, the
 * attached CSV export's server CPU went from 0.86-1.42 s to 0.71-0.79, the Parquet one's from
 * 1.44-1.87 to 1.31-1.42 (load 7-8, bench/README.md).
 */
const BATCH = 256 * 1024;

/**
 * Passes a 200 answer's bytes on MAX_TRAILER bytes late, joined into chunks of BATCH bytes or
 * more, and looks for ClickHouse's failure trailer in the last bytes only at the end: a trailer
 * is the stream's error instead of bytes.
 */
class TrailerCheck extends Transform {
  private held: Buffer[] = [];
  private heldBytes = 0;
  private passedOn = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.heldBytes < MAX_TRAILER + BATCH) return done();
    // Every held chunk but those of the last MAX_TRAILER bytes, joined.
    let count = 0;
    let bytes = 0;
    while (this.heldBytes - bytes - this.held[count]!.length >= MAX_TRAILER)
      bytes += this.held[count++]!.length;
    // One chunk of more than both (not ClickHouse's) waits, as before, for bytes after it.
    if (count === 0) return done();
    const passed = this.held.slice(0, count);
    this.held = this.held.slice(count);
    this.heldBytes -= bytes;
    this.passedOn = true;
    done(null, passed.length === 1 ? passed[0] : Buffer.concat(passed, bytes));
  }

  override _flush(done: TransformCallback): void {
    const tail = Buffer.concat(this.held);
    // A failure before any row (a format without a header: TabSeparatedRaw) starts the body.
    const first = !this.passedOn && tail.subarray(0, MARK.length - 1).equals(MARK.subarray(1));
    const mark = first ? 0 : tail.indexOf(MARK, Math.max(0, tail.length - MAX_TRAILER));
    const text = mark >= 0 ? tail.subarray(mark).toString('utf8') : '';
    if (hasTrailer(text)) return done(failureOf(text));
    done(null, tail);
  }
}

/**
 * A 200 answer's body with ClickHouse's failure trailer made its error; the answer cut before its
 * end is EngineUnavailable (QueryInterrupted once `signal` aborted), and the body destroyed
 * before its end destroys the answer (whose close kills the query).
 */
export function checkedBody(response: Readable, signal: AbortSignal): Readable {
  const body = new TrailerCheck();
  const cut = (): void => {
    if (!response.readableEnded)
      body.destroy(signal.aborted ? new QueryInterrupted() : new EngineUnavailable());
  };
  response.on('error', cut);
  response.once('close', cut);
  body.once('close', () => {
    if (!body.readableEnded) response.destroy();
  });
  return response.pipe(body);
}
