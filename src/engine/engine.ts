// What the rest of the server knows of a query engine, whatever runs the SQL: the values it
// answers with and the errors a client may be told of. DuckDB's engine is in duckdb/.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Thrown when a query is stopped by its caller (client gone). */
export class QueryInterrupted extends Error {
  constructor() {
    super('query interrupted');
  }
}

/** Thrown when a query ran past the engine's deadline and was interrupted. */
export class QueryDeadlineExceeded extends Error {
  constructor(readonly deadlineMs: number) {
    super(`query stopped after ${deadlineMs} ms`);
  }
}

/** Thrown when the engine could not get the memory a query needed within the engine's memory limit. */
export class QueryOutOfMemory extends Error {
  constructor() {
    super('the query needed more memory than the engine may use now');
  }
}

/** Thrown when a view's Parquet file is gone (a dataset folder removed while serving). */
export class DataFileMissing extends Error {
  constructor() {
    super("a dataset's data file is missing");
  }
}

/** Thrown when a query or an export could not write to the disk: it is full. */
export class DiskFull extends Error {
  constructor() {
    super('no space left on device');
  }
}

/** Thrown when every connection is busy and the waiting line is full. */
export class EngineSaturated extends Error {
  /** `retryAfterSeconds`: when the caller may find room (the time the line takes to be served). */
  constructor(readonly retryAfterSeconds = 1) {
    super('every connection is busy and the waiting line is full');
  }
}
