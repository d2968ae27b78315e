// A client of ClickHouse's HTTP interface (issue 29: datasets whose records live in a ClickHouse
// table or a Distributed table over shards): one SELECT per request, its JSON rows or its bytes
// streamed in one of ClickHouse's formats, each query named by a query_id of its own so that it
// can be stopped. Plain streaming HTTP, not @clickhouse/client: the read-only user an operator
// gives (readonly=1) may not override any setting, which that client sends, and ClickHouse 18.16
// (Debian's) does not stop a query when its HTTP connection closes: it is stopped with
// KILL QUERY. Credentials travel in the Authorization header, never in a URL, a message or a log.
// Knows nothing of ODSQL or of the portal's HTTP.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Readable } from 'node:stream';
import {
  EngineUnavailable,
  QueryDeadlineExceeded,
  QueryInterrupted,
  type JsonValue,
  type PageRows,
} from '../engine.js';
import { checkedBody, failureOf, hasTrailer, RETRY_SECONDS } from './failures.js';
import { BOOLEAN_TYPE, isJsonValueType, isPointType } from './types.js';

export interface ClickHouseOptions {
  /** The HTTP interface, `http://host:port` (no credentials in it). */
  readonly url: string;
  readonly user: string;
  readonly password: string;
  /** The longest a JSON query may run before it is killed; default 30 s (exports have none). */
  readonly deadlineMs?: number;
  /** The longest to wait for the server to answer at all before it counts as down; default 5 s. */
  readonly answerTimeoutMs?: number;
}

/** A format ClickHouse writes a whole result in, streamed as it writes. */
export type ClickHouseFormat =
  'CSV' | 'CSVWithNames' | 'TSVWithNames' | 'TSVWithNamesAndTypes' | 'JSONEachRow' | 'TabSeparated';

/** ClickHouse's integer types that its JSON writes as quoted text (64 bits and more). */
const QUOTED_INTEGER = /^(?:Nullable\()?U?Int(?:64|128|256)\)?$/;

/** One column of a FORMAT JSON answer. */
interface JsonMeta {
  readonly name: string;
  readonly type: string;
}

export class ClickHouseClient {
  private readonly authorization: string;
  private readonly deadlineMs: number;
  private readonly answerTimeoutMs: number;
  private killing = 0;

  constructor(private readonly options: ClickHouseOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;
    this.deadlineMs = options.deadlineMs ?? 30_000;
    this.answerTimeoutMs = options.answerTimeoutMs ?? 5_000;
  }

  /**
   * KILL QUERY requests sent and not yet answered: the queries they stop may still run on the
   * server (a process that exits before the answer may leave them running).
   */
  get stopping(): number {
    return this.killing;
  }

  /**
   * Runs one SELECT and reads its rows as JSON objects, 64-bit integers as numbers; killed at the
   * deadline (QueryDeadlineExceeded) or when `signal` aborts (QueryInterrupted).
   */
  async queryJson(sql: string, signal?: AbortSignal): Promise<Record<string, JsonValue>[]> {
    return (await this.queryPage(sql, signal)).rows;
  }

  /**
   * queryJson's rows, and the rows_before_limit_at_least FORMAT JSON writes beside them when the
   * query has a LIMIT (the rows the query had before it, counted in the same pass).
   */
  async queryPage(sql: string, signal?: AbortSignal): Promise<PageRows> {
    const deadline = AbortSignal.timeout(this.deadlineMs);
    const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      const response = await this.send(`${sql}\nFORMAT JSON`, stop);
      const body = jsonOfAnswer(await readText(response, stop)) as {
        meta: JsonMeta[];
        data: Record<string, JsonValue>[];
        rows_before_limit_at_least?: number;
      };
      return {
        rows: body.data.map((row) => valuesOf(row, body.meta)),
        rowsBeforeLimit: body.rows_before_limit_at_least ?? null,
      };
    } catch (error) {
      if (deadline.aborted && !signal?.aborted) throw new QueryDeadlineExceeded(this.deadlineMs);
      throw error;
    }
  }

  /** Runs one statement that answers no rows (the DDL of `duckportal attach`); its answer's text. */
  async execute(sql: string): Promise<string> {
    const signal = AbortSignal.timeout(this.deadlineMs);
    return readText(await this.send(sql, signal), signal);
  }

  /**
   * Streams the whole result of `sql` as ClickHouse writes it in `format`; settles once the
   * answer's status is known, so that errors until then are answers. The query is killed when the
   * stream is destroyed before its end (the reader went away) or `signal` aborts.
   */
  async stream(sql: string, format: ClickHouseFormat, signal: AbortSignal): Promise<Readable> {
    return checkedBody(await this.send(`${sql}\nFORMAT ${format}`, signal), signal);
  }

  /** Sends one statement under a query_id of its own; resolves with the 200 answer's body. */
  private send(sql: string, signal: AbortSignal): Promise<http.IncomingMessage> {
    if (signal.aborted) return Promise.reject(new QueryInterrupted());
    const queryId = randomUUID();
    const url = `${this.options.url}/?query_id=${queryId}`;
    return new Promise((resolve, reject) => {
      let answered = false;
      let finished = false;
      const kill = (): void => {
        if (finished) return;
        finished = true;
        request.destroy();
        this.kill(queryId);
      };
      const onAbort = (): void => {
        kill();
        if (!answered) reject(new QueryInterrupted());
      };
      const request = http.request(url, {
        method: 'POST',
        headers: { Authorization: this.authorization, 'Content-Type': 'text/plain; charset=utf-8' },
        timeout: this.answerTimeoutMs,
      });
      request.on('timeout', () => {
        if (answered) return;
        kill();
        reject(new EngineUnavailable(RETRY_SECONDS));
      });
      request.on('error', () => {
        signal.removeEventListener('abort', onAbort);
        if (!answered) reject(signal.aborted ? new QueryInterrupted() : new EngineUnavailable(RETRY_SECONDS));
      });
      request.on('response', (response) => {
        answered = true;
        request.setTimeout(0);
        if (response.statusCode !== 200) {
          finished = true;
          signal.removeEventListener('abort', onAbort);
          readText(response, signal).then((text) => reject(failureOf(text)), reject);
          return;
        }
        response.once('end', () => {
          finished = true;
          signal.removeEventListener('abort', onAbort);
        });
        // Destroyed before its end: whoever read it went away, and ClickHouse would run on.
        response.once('close', () => {
          if (!response.readableEnded) kill();
        });
        resolve(response);
      });
      signal.addEventListener('abort', onAbort, { once: true });
      request.end(sql);
    });
  }

  /**
   * Stops a query by its id (its own connection; a failure leaves it to the server's limits),
   * counted in `stopping` until answered.
   */
  private kill(queryId: string): void {
    this.killing++;
    const request = http.request(`${this.options.url}/`, {
      method: 'POST',
      headers: { Authorization: this.authorization },
      timeout: this.answerTimeoutMs,
    });
    request.on('response', (response) => response.resume());
    request.on('error', () => undefined);
    request.on('timeout', () => request.destroy());
    // Answered (its body read), failed or timed out: the socket closes once, in every case.
    request.on('close', () => this.killing--);
    request.end(`KILL QUERY WHERE query_id = '${queryId}' ASYNC`);
  }
}

/**
 * A FORMAT JSON answer's value; a failure after ClickHouse's first byte is written after the
 * JSON begun (see failures.ts), which is then the error.
 */
function jsonOfAnswer(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (hasTrailer(text)) throw failureOf(text);
    throw error;
  }
}

/** The body of an answer as text, given up (QueryInterrupted) when `signal` aborts first. */
function readText(response: http.IncomingMessage, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', () => reject(signal.aborted ? new QueryInterrupted() : new EngineUnavailable()));
    response.on('close', () => {
      if (!response.readableEnded) reject(signal.aborted ? new QueryInterrupted() : new EngineUnavailable());
    });
  });
}

/** ClickHouse's types of booleans in results (src/engine/clickhouse/types.ts). */
const BOOLEANS: ReadonlySet<string> = new Set([BOOLEAN_TYPE, `Nullable(${BOOLEAN_TYPE})`]);

/** A point's tuple [lon, lat] (FORMAT JSON writes tuples as arrays) as DuckDB's {lon, lat}; (NULL, NULL) is null. */
function pointOf(value: JsonValue | undefined): JsonValue {
  const [lon, lat] = Array.isArray(value) ? value : [];
  return typeof lon === 'number' && typeof lat === 'number' ? { lon, lat } : null;
}

/** A JSON value's tuple [text] parsed. */
function jsonOf(value: JsonValue | undefined): JsonValue {
  const [text] = Array.isArray(value) ? value : [];
  return typeof text === 'string' ? (JSON.parse(text) as JsonValue) : null;
}

/**
 * A row with its quoted 64-bit integers made numbers, as DuckDB's engine reads every integer
 * (counts and sums past 2^53 do not occur in a portal: src/engine/duckdb/values.ts), its booleans
 * (written `true` or `false`) made booleans, its points and JSON values read.
 */
function valuesOf(row: Record<string, JsonValue>, meta: readonly JsonMeta[]): Record<string, JsonValue> {
  for (const { name, type } of meta) {
    const value = row[name];
    if (isPointType(type)) row[name] = pointOf(value);
    else if (isJsonValueType(type)) row[name] = jsonOf(value);
    if (typeof value !== 'string') continue;
    if (BOOLEANS.has(type)) row[name] = value === 'true';
    else if (QUOTED_INTEGER.test(type)) row[name] = Number(value);
  }
  return row;
}
