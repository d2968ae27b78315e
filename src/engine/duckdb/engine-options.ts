// How the DuckDB engine is opened: its folders, threads, memory, pool, deadlines and budgets.

/** The options of DuckDBEngine.open. */
export interface EngineOptions {
  /** Directories DuckDB may read; everything else is refused once locked. */
  readonly allowedDirectories: readonly string[];
  /** Spill folder; wiped at start because spill files survive a crash. */
  readonly tempDirectory: string;
  readonly threads?: number;
  readonly memoryLimit?: string;
  readonly connections?: number;
  /** Longest a JSON query (not an export) may run before it is interrupted; default 30 s. */
  readonly queryDeadlineMs?: number;
  /**
   * The longest a caller should wait for a connection, in ms (default 2 s): the waiting line holds
   * as many as the pool serves in that time at the measured service time, and refuses one more at
   * once (src/engine/admission.ts).
   */
  readonly targetWaitMs?: number;
  /** Most callers that may wait for a connection (admitted or not), one more is refused. Default 1024. */
  readonly maxWaiting?: number;
  /**
   * Most exports running at once, each on a connection of its own outside the pool (a slow reader
   * holds it, and a COPY blocked on its pipe holds a libuv thread); one more is refused. Default 32.
   */
  readonly exportConnections?: number;
  /** total_count answers kept by their SQL (src/engine/count-cache.ts); 0 keeps none. Default 4,096. */
  readonly countEntries?: number;
  /**
   * Bytes of holistic aggregations' states (outside memory_limit) that all queries and exports
   * together may hold (src/engine/memory-budget.ts); default what one query may hold.
   */
  readonly memoryBudgetBytes?: number;
  /**
   * Bytes of DuckDB's memory for copies of datasets asked often (hot-datasets.ts); default a
   * quarter of its memory limit; 0 copies none.
   */
  readonly hotBytes?: number;
}
