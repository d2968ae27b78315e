// Paths of API answers that live outside /api: the portal's download links, which scripts copy
// from the explore pages (answered in explore-download.ts, kept as API calls by operations.ts).

/** The path of a dataset's download link, as the explore pages write it (matched without its slash). */
export const EXPLORE_DOWNLOAD_PATH = '/explore/dataset/:dataset_id/download';
