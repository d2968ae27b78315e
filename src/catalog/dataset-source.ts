// A dataset's source as dataset.json records it: the URL `duckportal refresh` downloads again, what
// the last download said, and the ingest flags that shaped the dataset, passed again by a refresh.
import { z } from 'zod';
import { geoPointFrom } from './geo-point-from.js';

/** How often `duckportal refresh` checks a source: a whole number of minutes, hours or days (`6h`). */
export const REFRESH_EVERY = /^[1-9][0-9]{0,5}[mhd]$/;

const count = z.number().int().positive().nullable().default(null);

/**
 * The URL a dataset is published from and how often `duckportal refresh` checks it (`ingest URL
 * --refresh 6h`), with what the last download said (its validators and the digest of its bytes)
 * and how it was read: a refresh asks again with If-None-Match / If-Modified-Since and ingests
 * the new bytes only when they differ, with the same flags. Every flag has a default meaning
 * "not given", so that a dataset.json written before a flag was recorded still reads.
 */
export const datasetSourceSchema = z
  .object({
    url: z
      .string()
      .url()
      .refine((text) => /^https?:\/\//i.test(text), 'an http(s) URL'),
    refresh: z.string().regex(REFRESH_EVERY, 'minutes, hours or days such as 30m, 6h, 1d'),
    etag: z.string().nullable().default(null),
    last_modified: z.string().nullable().default(null),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'the hex SHA-256 of the bytes downloaded')
      .nullable()
      .default(null),
    /** --format, --sheet, --null. */
    format: z.string().nullable().default(null),
    sheet: z.string().nullable().default(null),
    null_tokens: z.array(z.string()).default([]),
    /** --header-row, --skip-rows, --header-rows. */
    header_row: count,
    skip_rows: z.number().int().nonnegative().nullable().default(null),
    header_rows: count,
    /** --geo-point. */
    geo_point: geoPointFrom.nullable().default(null),
    /** --sort-by ([]: `none`, the file's order); null: chosen by each ingest. */
    sort_by: z.array(z.string()).nullable().default(null),
    /** --no-auto-facets is false. */
    auto_facets: z.boolean().default(true),
    /** --strict: a refresh whose values cannot all be stored as written fails, the version served kept. */
    strict: z.boolean().default(false),
  })
  .strict();
export type DatasetSource = z.output<typeof datasetSourceSchema>;
