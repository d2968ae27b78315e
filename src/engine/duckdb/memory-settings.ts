// DuckDB's settings of memory that the engine opens its instance with.

/**
 * What DuckDB keeps of freed memory and of the files it read. Its allocator gives memory back
 * sooner: thread caches are flushed after any task that allocated past 16 MB (default 128 MB),
 * and purged by a background thread, which lowers the peaks of exports run one after another
 * without slowing aggregations. Its external file cache is off: it kept Parquet pages read from
 * local disk in DuckDB's memory, beside the system's page cache, for no gain in speed (both
 * measured: docs/exports.md, Streaming discipline).
 * How soon the allocator hands purged pages back is read at the process's start: see
 * bin/duckportal.cjs.
 */
export const MEMORY_SETTINGS = {
  allocator_flush_threshold: '16MB',
  allocator_background_threads: 'true',
  enable_external_file_cache: 'false',
} as const;
