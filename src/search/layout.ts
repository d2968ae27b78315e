// The layout of search.parquet, the full-text index beside data.parquet, shared by its builder and the compiler.
//
// One file (one view for the server to define) holding two kinds of rows, sorted by kind then token:
// - posting: a distinct (token, field) with the sorted list of the ordinals of the records holding
//   it; these rows are also the vocabulary, so fuzzy and prefix matching scan only them and read
//   the ordinal lists of the tokens that match, never a row per occurrence;
// - record: the record id of each ordinal (dense integers keep posting lists small).

/** File name of the index in the dataset directory. */
export const SEARCH_INDEX_FILE = 'search.parquet';

/** Values of the `kind` column. */
export const ROW_KIND = { posting: 1, record: 2 } as const;

/** Column names of search.parquet. */
export const INDEX_COLUMNS = {
  kind: 'kind',
  token: 'token',
  field: 'field',
  /** UINTEGER[] on posting rows, ascending; an ordinal repeats when a value holds the token twice. */
  ordinals: 'ords',
  /** UINTEGER on record rows. */
  ordinal: 'ord',
  recordId: 'rid',
} as const;
