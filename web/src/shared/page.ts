// What the server tells a page's script, through <body data-*> (src/web/layout.ts).

export interface PageData {
  /** The v2.1 API base, on the page's own origin. */
  readonly api: string;
  /** The dataset of a dataset page, or null. */
  readonly dataset: string | null;
  /** The dataset tab shown, or null. */
  readonly tab: string | null;
  /**
   * The catalog page's ODSQL condition leaving out the datasets its visitor cannot open (the
   * server decides, src/web/catalog-scope.ts), or null.
   */
  readonly scope: string | null;
}

/** The page's data attributes. */
export function pageData(): PageData {
  const data = document.body.dataset;
  return {
    api: data.api ?? '/api/explore/v2.1',
    dataset: data.dataset ?? null,
    tab: data.tab ?? null,
    scope: data.scope ?? null,
  };
}
