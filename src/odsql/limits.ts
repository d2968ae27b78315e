// Bounds on the size of a query, so that no ODSQL text can make parsing or DuckDB's planner work for seconds.
//
// DuckDB's planner takes seconds over a deeply nested expression or a long OR chain (measured:
// bench/README.md, Measurements behind the code). The limits below stay far under both while leaving room
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
 * the index's vocabulary and adds an INTERSECT, so a search's time grows with its terms, and about
 * a thousand pass DuckDB's expression depth (docs/access-control.md). Each
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
 * memory DuckDB's limit does not see: many percentiles grouped by a field took the process many
 * times past that limit (docs/access-control.md). Percentiles and medians of one argument share
 * one state (one sorted copy); a query holds at most this many states.
 */
export const MAX_HOLISTIC_STATES = 4;

/**
 * Bytes the holistic states of one query may hold, estimated by HOLISTIC_BYTES: within the 512 MB
 * docs/access-control.md allows above DuckDB's limit, less what the process itself holds.
 */
export const HOLISTIC_BUDGET_BYTES = 448 * 2 ** 20;

/**
 * What one state costs, per value of the argument and per group, as measured with DuckDB 1.5 and
 * rounded up (bench/README.md, Measurements behind the code).
 */
export const HOLISTIC_BYTES = { perValue: 14, perGroup: 48 } as const;
