// The layout of search.parquet, the full-text index beside data.parquet, shared by its builder and the compiler.
//
// One row per (token, field) and block of POSTING_BLOCK ordinals (build-index.ts), sorted by token,
// with the sorted list of the ordinals of the records holding it (their 1-based position in
// data.parquet, the dataset view's `_ordinal`). These rows are also the vocabulary, so fuzzy and prefix matching scan only them and read the ordinal
// lists of the tokens that match, never a row per occurrence.

/** File name of the index in the dataset directory. */
export const SEARCH_INDEX_FILE = 'search.parquet';

/** Column names of search.parquet. */
export const INDEX_COLUMNS = {
  token: 'token',
  field: 'field',
  /** UINTEGER[], ascending; an ordinal repeats when a value holds the token twice. */
  ordinals: 'ords',
} as const;
