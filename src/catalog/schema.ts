// The files of a portal directory, as zod schemas: the one definition of what an operator may write.
import { z } from 'zod';
import { datasetSourceSchema } from './dataset-source.js';
import { geoPointFrom } from './geo-point-from.js';

/** Field types whose values are one scalar each: text, numbers, truth, dates and instants. */
export const SCALAR_TYPES = ['text', 'int', 'double', 'boolean', 'date', 'datetime'] as const;

/** Field types of the Explore API (supplement section 2). */
export const FIELD_TYPES = [...SCALAR_TYPES, 'geo_point_2d', 'geo_shape', 'file', 'json_blob'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** A column of a table the engine is given, in the portal's field types (stored as ingest stores them). */
export interface TableColumn {
  readonly name: string;
  readonly type: FieldType;
  readonly multivalued: boolean;
}

/** The hidden column that holds each record's stable identifier. */
export const RECORD_ID_COLUMN = '_recordid';

/**
 * The hidden column of a dataset view holding each record's position in data.parquet, counted
 * from 1: Parquet's `file_row_number` virtual column, which the full-text index's postings list.
 */
export const ORDINAL_COLUMN = '_ordinal';

/** The Parquet virtual column the ordinal reads: a field of that name hides it (see querySource). */
export const FILE_ROW_NUMBER = 'file_row_number';

/** SQL of a row's ordinal over `read_parquet` (the view's column and the index's postings agree). */
export const ORDINAL_SQL = `${FILE_ROW_NUMBER} + 1`;

/** The column of a table of value counts beside the field's: the records holding that value. */
export const VALUE_COUNT_COLUMN = '_count';

const identifier = z
  .string()
  .regex(/^[a-z_][a-z0-9_]*$/, 'lowercase letters, digits and _, not starting with a digit');

/** Annotations as in v2.1: name -> args (an empty list when the annotation takes none). */
export const annotationsSchema = z.record(z.string(), z.array(z.string())).default({});

export const fieldSchema = z
  .object({
    name: identifier,
    label: z.string(),
    type: z.enum(FIELD_TYPES),
    description: z.string().nullable().default(null),
    annotations: annotationsSchema,
  })
  .strict();
export type Field = z.infer<typeof fieldSchema>;

/** Whether a field holds a list of values (stored as VARCHAR[]). */
export const isMultivalued = (field: Field): boolean => field.annotations.multivalued !== undefined;

const metaValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.string()),
  z.record(z.string(), z.unknown()),
]);

/** Metas grouped by template: `default`, `dcat`, and any custom template. */
export const metasSchema = z
  .object({
    default: z
      .object({
        title: z.string(),
        description: z.string().nullable().default(null),
        theme: z.array(z.string()).nullable().default(null),
        keyword: z.array(z.string()).nullable().default(null),
        license: z.string().nullable().default(null),
        license_url: z.string().nullable().default(null),
        language: z.string().nullable().default(null),
        publisher: z.string().nullable().default(null),
        references: z.string().nullable().default(null),
        attributions: z.array(z.string()).nullable().default(null),
        territory: z.array(z.string()).nullable().default(null),
        modified: z.string().datetime({ offset: true }).nullable().default(null),
      })
      .catchall(metaValue),
  })
  .catchall(z.record(z.string(), metaValue));
export type Metas = z.infer<typeof metasSchema>;

/** Who may read a dataset's data; issue-level access control builds on `restricted`. */
export const visibilitySchema = z.enum(['public', 'restricted']).default('public');

/**
 * One audience of a dataset: the users and groups it names (`*` = everyone, anonymous callers
 * included), the fields hidden from it, and an ODSQL `where` applied before its own queries.
 */
export const audienceSchema = z
  .object({
    users: z.array(z.string()).default([]),
    groups: z.array(z.string()).default([]),
    hidden_fields: z.array(z.string()).default([]),
    row_filter: z.string().nullable().default(null),
  })
  .strict();
export type Audience = z.output<typeof audienceSchema>;

/** A MIME type without parameters: `type/subtype`. */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/**
 * What the publisher says of one file of the dataset's attachments/ folder (by its file name):
 * `all_audiences` true when it holds nothing an audience under a row filter or hidden fields may
 * not read, so that such audiences are served it too (docs/access-control.md, Attachments and audiences).
 */
export const attachmentEntrySchema = z
  .object({
    file: z.string().min(1),
    /** Shown instead of the file name (`ingest --attach FILE=Title`, `attach-file --title`). */
    title: z.string().min(1).optional(),
    /** Served as Content-Type; absent: the one of the file's extension. */
    mime_type: z.string().regex(MIME_TYPE, 'a MIME type such as text/csv').optional(),
    all_audiences: z.boolean().default(false),
  })
  .strict();
export type AttachmentEntry = z.output<typeof attachmentEntrySchema>;

/** A ClickHouse table name, optionally after its database: letters, digits and _. */
export const CLICKHOUSE_TABLE = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** An HTTP(S) address without credentials, path, query or fragment: `http://host:port`. */
const serverUrl = z
  .string()
  .url()
  .refine((text) => {
    const url = new URL(text);
    return (
      ['http:', 'https:'].includes(url.protocol) &&
      url.username === '' &&
      url.password === '' &&
      url.pathname === '/' &&
      url.search === '' &&
      url.hash === '' &&
      !text.endsWith('/')
    );
  }, 'an http(s)://host:port address without credentials or path');

/**
 * Where the records of a dataset live when not in its data.parquet (`duckportal attach`): a
 * ClickHouse table (or a Distributed table over shards) on the server at `url`, whose credentials
 * are in the portal folder's clickhouse.json, never here.
 */
export const datasetEngineSchema = z
  .object({
    // The engines' registry (src/engine/kinds.ts) says which names exist; the loader checks it.
    kind: z.string().regex(/^[a-z][a-z0-9_]*$/, 'an engine kind name'),
    url: serverUrl,
    table: z.string().regex(CLICKHOUSE_TABLE, 'a table name, optionally database.table'),
  })
  .strict();
export type DatasetEngine = z.infer<typeof datasetEngineSchema>;

/** clickhouse.json in a portal folder (readable by its owner only): the credentials of each server. */
export const clickHouseServersSchema = z
  .object({
    servers: z.array(z.object({ url: serverUrl, user: z.string().min(1), password: z.string() }).strict()),
  })
  .strict();
export type ClickHouseServers = z.infer<typeof clickHouseServersSchema>;

export const datasetFileSchema = z
  .object({
    dataset_uid: z.string().min(1),
    /** Absent: the records are in data.parquet beside dataset.json. */
    engine: datasetEngineSchema.optional(),
    visibility: visibilitySchema,
    /** Who sees what: the first audience naming the caller applies (docs/access-control.md). */
    access: z.array(audienceSchema).default([]),
    /** What the publisher says of attachment files: title, MIME type, all audiences (an unlisted file: its name and extension, whole readers only). */
    attachments: z.array(attachmentEntrySchema).default([]),
    metas: metasSchema,
    fields: z.array(fieldSchema),
    /** Where `duckportal refresh` downloads the dataset again from; absent: nowhere. */
    source: datasetSourceSchema.optional(),
    /** Free-form application metas, returned only with include_app_metas=true. */
    app_metas: z.record(z.string(), z.unknown()).default({}),
    /** Facts computed by ingest; hand edits are overwritten by the next ingest. */
    computed: z
      .object({
        records_count: z.number().int().nonnegative(),
        data_processed: z.string().datetime({ offset: true }),
        metadata_processed: z.string().datetime({ offset: true }),
        bbox: z
          .object({ west: z.number(), south: z.number(), east: z.number(), north: z.number() })
          .nullable()
          .default(null),
        geometry_types: z.array(z.string()).default([]),
        temporal_coverage_from: z.string().nullable().default(null),
        temporal_coverage_to: z.string().nullable().default(null),
        /** Distinct values of each single-valued scalar field (nulls not counted), by name. */
        distinct_counts: z.record(z.string(), z.number().int().nonnegative()).default({}),
        /** The fields data.parquet is sorted on, in order; [] when rows are in the source file's order. */
        sort_by: z.array(z.string()).default([]),
        /**
         * The fields with a table of value counts beside data.parquet (`counts/<field>.parquet`:
         * each distinct value, null included, and its records), which single-field counts and
         * groupings read instead of the rows (src/odsql/value-counts.ts).
         */
        value_counts: z.array(identifier).default([]),
        /**
         * The fields ingest made facets by itself (none was given): annotated `facet` like the
         * others, recomputed by the next ingest, dropped when `--facet` or `--no-auto-facets` is given.
         */
        auto_facets: z.array(identifier).default([]),
        /**
         * The fields `--geo-point` made the geo_point_2d field of (see GeoPointFrom; the next ingest
         * uses them again while they are numeric fields, or text for one); null when detected or none.
         */
        geo_point_from: geoPointFrom.nullable().default(null),
      })
      .strict(),
  })
  .strict();
export type DatasetFile = z.infer<typeof datasetFileSchema>;

const limit = z.number().int().positive().nullable();

/** The slowest an export may be read: below `bytes_per_second` averaged over `window_seconds`, the client is cut off. */
const exportMinRate = z
  .object({ bytes_per_second: z.number().int().positive(), window_seconds: z.number().positive() })
  .strict();

/**
 * API call quotas per day (UTC), concurrent exports per caller and the minimum transfer rate of
 * an export; null means unlimited.
 */
export const quotasSchema = z
  .object({
    per_key: limit.default(100_000),
    per_ip: limit.default(10_000),
    portal: limit.default(null),
    concurrent_exports: limit.default(4),
    export_min_rate: exportMinRate.nullable().default({ bytes_per_second: 16_384, window_seconds: 120 }),
  })
  .strict();
export type Quotas = z.output<typeof quotasSchema>;
export const DEFAULT_QUOTAS: Quotas = {
  per_key: 100_000,
  per_ip: 10_000,
  portal: null,
  concurrent_exports: 4,
  export_min_rate: { bytes_per_second: 16_384, window_seconds: 120 },
};

export const portalFileSchema = z
  .object({
    title: z.string(),
    domain: z.string().default('localhost'),
    /** Other host names of the portal, when one server serves several (src/http/hosts.ts). */
    aliases: z.array(z.string()).default([]),
    language: z.string().default('en'),
    timezone: z.string().default('UTC'),
    private: z.boolean().default(false),
    quotas: quotasSchema.default(DEFAULT_QUOTAS),
    /** Metas of custom templates offered as catalog facets, as `<template>.<name>`. */
    catalog_facets: z.array(z.string()).default([]),
  })
  .strict();
export type PortalFile = z.infer<typeof portalFileSchema>;
