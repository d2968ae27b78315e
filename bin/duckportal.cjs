#!/usr/bin/env node
// The `duckportal` command: sizes the thread pool, then hands over to the ES module CLI.
require('./threadpool.cjs');
import('../dist/src/cli.js').catch((error) => {
  console.error(error);
  process.exit(1);
});
