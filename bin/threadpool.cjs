// Sets libuv's thread pool size before anything uses the pool. libuv reads it once, at first
// use, and Node's ES module loader reads files through the pool: an ES module is too late, so
// every entry point (bin/duckportal.cjs, mocha's `require`) loads this CommonJS file first.
// Each DuckDB call (node-api async work) and each COPY export blocked on a slow reader holds a
// pool thread: the pool must outnumber the engine's connections plus its export connections.
process.env.UV_THREADPOOL_SIZE = process.env.UV_THREADPOOL_SIZE || '64';
