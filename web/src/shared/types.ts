// The shapes of the API answers the pages read (explore-api.md), only the parts they use.

export interface FacetValue {
  readonly name: string;
  readonly value: string;
  readonly count: number;
  readonly state?: string;
  /** Values below this one in a hierarchical or date facet. */
  readonly facets?: readonly FacetValue[];
}

export interface FacetGroup {
  readonly name: string;
  readonly facets: readonly FacetValue[];
}

export interface FacetsAnswer {
  readonly facets: readonly FacetGroup[];
}

export interface Field {
  readonly name: string;
  readonly label: string | null;
  readonly type: string;
  readonly description: string | null;
  readonly annotations?: Readonly<Record<string, unknown>>;
}

export interface Attachment {
  readonly id: string;
  readonly title: string;
  readonly mimetype: string;
}

export interface DatasetMetas {
  readonly title: string;
  readonly description: string | null;
  readonly theme?: readonly string[] | null;
  readonly keyword?: readonly string[] | null;
  readonly license?: string | null;
  readonly license_url?: string | null;
  readonly publisher?: string | null;
  readonly modified?: string | null;
  readonly records_count?: number | null;
  readonly data_processed?: string | null;
  readonly metadata_processed?: string | null;
  readonly [key: string]: unknown;
}

export interface Dataset {
  readonly dataset_id: string;
  readonly has_records: boolean;
  readonly data_visible: boolean;
  readonly features: readonly string[];
  readonly fields: readonly Field[];
  readonly attachments: readonly Attachment[];
  readonly metas: { readonly default: DatasetMetas; readonly [template: string]: unknown };
}

export interface Page<T> {
  readonly total_count: number;
  readonly results: readonly T[];
}
