// Bounds on the size of a query, so that no ODSQL text can make parsing or DuckDB's planner work for seconds.
//
// Measured (DESIGN.md): an 800-deep nested expression planned for 7.6 s and an OR chain of
// 20k terms for 5.5 s in DuckDB 1.5. The limits below stay far under both while leaving room
// for every query a person or a client library writes.

/** Characters in one clause (where, select, ...): ten maximal literals plus their syntax. */
export const MAX_CLAUSE_LENGTH = 100_000;

/** Tokens in one clause: bounds the parser's work before any tree exists. */
export const MAX_TOKENS = 10_000;

/** Nesting depth of an expression tree (chains of AND/OR count as one level). */
export const MAX_DEPTH = 64;

/** Nodes in a whole query, all clauses together. */
export const MAX_NODES = 2_000;

/**
 * Terms of one full-text search (search(), suggest(), a bare string, v1's q). Each term scans
 * the index's vocabulary and adds an INTERSECT: on flights, 8 terms took 1.7 s, 32 took 5.2 s,
 * 480 took 15.5 s and +480 MB, and about 1,000 passed DuckDB's expression depth (a 500). Each
 * term also costs the search's planning cost against MAX_NODES, so one query holds at most
 * three searches of this many terms.
 */
export const MAX_SEARCH_TERMS = 16;

/** Values in one `IN (...)` list. */
export const MAX_IN_LIST = 1_000;

/** Characters in one string, date or geometry literal. */
export const MAX_LITERAL_LENGTH = 10_000;

/**
 * Holistic aggregations (median, percentile, envelope) keep every value of their argument in
 * memory DuckDB's limit does not see: 99 percentiles of flights' delay grouped by origin took the
 * process from 0.7 to 7.0 GB at a 384MB limit. Percentiles and medians of one argument share
 * one state (one sorted copy); a query holds at most this many states.
 */
export const MAX_HOLISTIC_STATES = 4;

/**
 * Bytes the holistic states of one query may hold, estimated by HOLISTIC_BYTES: within the 512 MB
 * the README allows above DuckDB's limit, less the process's own 140-200 MB.
 */
export const HOLISTIC_BUDGET_BYTES = 448 * 2 ** 20;

/**
 * What one state costs, measured with DuckDB 1.5: each value of the argument 12-16 bytes
 * (median and p95 of the 30M flights' delay by destination: 139 to 507 MiB resident), and each
 * group 30-45 bytes more (45-57 bytes per row with one group per flight); rounded up.
 */
export const HOLISTIC_BYTES = { perValue: 14, perGroup: 48 } as const;
