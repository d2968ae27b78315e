// The layout of search.parquet, the full-text index beside data.parquet, shared by its builder and the compiler.
//
// One file (one view for the server to define) holding three kinds of rows, sorted by kind then
// token so that Parquet row-group statistics let a query read only the part it needs:
// - vocabulary: each distinct token once (fuzzy and prefix matching scan only these);
// - posting: a token occurs in a field of a record, named by a dense ordinal;
// - record: the record id of each ordinal (ordinals keep postings small and joins on integers).

/** File name of the index in the dataset directory. */
export const SEARCH_INDEX_FILE = 'search.parquet';

/** Values of the `kind` column. */
export const ROW_KIND = { vocabulary: 0, posting: 1, record: 2 } as const;

/** Column names of search.parquet. */
export const INDEX_COLUMNS = {
  kind: 'kind',
  token: 'token',
  field: 'field',
  ordinal: 'ord',
  recordId: 'rid',
} as const;
