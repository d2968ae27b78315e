// Imported first by every entry point: libuv reads its pool size once, at first use, and with
// the default of 4 threads four long DuckDB queries delay a `SELECT 42` by most of a second.
process.env.UV_THREADPOOL_SIZE ??= '16';
