// `duckportal attach`: adds a dataset whose records live in a ClickHouse table. Its fields come from
// the table's schema (DESCRIBE TABLE, typed by src/engine/clickhouse/types.ts), its dataset.json
// names the server by address and the table; the credentials go to the portal's clickhouse.json.
// A table without the hidden `_recordid` and `_ordinal` columns is served through a view that
// computes them from each row (a digest of its values, and a hash of them that orders rows).
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DATASET_ID } from '../catalog/portal.js';
import {
  saveClickHouseServer,
  readClickHouseServers,
  type ClickHouseCredentials,
} from '../catalog/clickhouse-servers.js';
import {
  CLICKHOUSE_TABLE,
  datasetFileSchema,
  ORDINAL_COLUMN,
  RECORD_ID_COLUMN,
  type DatasetFile,
  type Field,
} from '../catalog/schema.js';
import { ClickHouseClient } from '../engine/clickhouse/http-client.js';
import { fieldKindOf } from '../engine/clickhouse/types.js';
import { isoNow } from '../ingest/computed.js';
import { newDatasetUid } from '../ingest/dataset-file.js';
import type { AttachFlags } from './attach.js';

/** A ClickHouse name in backquotes (table names are checked against CLICKHOUSE_TABLE first). */
const quoted = (name: string): string =>
  name
    .split('.')
    .map((part) => `\`${part}\``)
    .join('.');

/** The address without credentials, and the credentials (from the URL, else clickhouse.json). */
async function serverOf(
  portalDir: string,
  text: string,
): Promise<{ url: string; credentials: ClickHouseCredentials; given: boolean }> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('--clickhouse: expected http://USER:PASSWORD@host:port');
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search !== '')
    throw new Error('--clickhouse: expected http://USER:PASSWORD@host:port, without a path');
  const address = `${url.protocol}//${url.host}`;
  if (url.username !== '') {
    const credentials = {
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    };
    return { url: address, credentials, given: true };
  }
  const known = (await readClickHouseServers(portalDir)).get(address);
  if (!known) throw new Error(`--clickhouse: no credentials known for ${address}: give them once in the URL`);
  return { url: address, credentials: known, given: false };
}

interface Column {
  readonly name: string;
  readonly type: string;
}

/** The fields of the table's columns; a column the portal cannot serve is said on stderr and left out. */
function fieldsOf(
  columns: readonly Column[],
  facets: ReadonlySet<string>,
  say: (line: string) => void,
): Field[] {
  const fields: Field[] = [];
  for (const { name, type } of columns) {
    if (name === RECORD_ID_COLUMN || name === ORDINAL_COLUMN) continue;
    const kind = fieldKindOf(type);
    if (!kind || !/^[a-z_][a-z0-9_]*$/.test(name)) {
      say(
        `column ${name} (${type}) left out: ${kind ? 'a field name is lowercase' : 'no field type holds it'}`,
      );
      continue;
    }
    const annotations: Field['annotations'] = {};
    if (kind.multivalued) annotations.multivalued = [];
    if (facets.has(name)) annotations.facet = [];
    fields.push({ name, label: name, type: kind.type, description: null, annotations });
  }
  const missing = [...facets].filter((f) => !fields.some((field) => field.name === f));
  if (missing.length > 0) throw new Error(`--facet: no field ${missing.join(', ')} in the table`);
  return fields;
}

/**
 * The view serving a table without the hidden columns: its rows with `_recordid`, the SHA-256 of
 * the row's values as text, and `_ordinal`, their 64-bit hash (rows sort on it to break ties).
 */
function hiddenColumnsView(view: string, table: string, columns: readonly Column[]): string {
  const row = `toString(tuple(${columns.map((c) => quoted(c.name)).join(', ')}))`;
  return `CREATE VIEW ${quoted(view)} AS SELECT *, lower(hex(SHA256(${row}))) AS ${RECORD_ID_COLUMN}, cityHash64(${row}) AS ${ORDINAL_COLUMN} FROM ${quoted(table)}`;
}

export async function main(flags: AttachFlags): Promise<void> {
  const say = (line: string): void => {
    if (!flags.quiet) process.stderr.write(`${flags.id}: ${line}\n`);
  };
  const portalDir = path.resolve(flags.portal);
  if (!DATASET_ID.test(flags.id)) throw new Error('--id: lowercase letters, digits, - and _');
  if (!CLICKHOUSE_TABLE.test(flags.table))
    throw new Error('--table: a table name, optionally database.table');
  const dir = path.join(portalDir, 'datasets', flags.id);
  if (await stat(dir).catch(() => null)) throw new Error(`--id: the dataset ${flags.id} exists (${dir})`);
  const server = await serverOf(portalDir, flags.clickhouse);
  const client = new ClickHouseClient({ url: server.url, ...server.credentials });
  const columns = (await client.queryJson(`DESCRIBE TABLE ${quoted(flags.table)}`)) as unknown as Column[];
  const names = new Set(columns.map((c) => c.name));
  let table = flags.table;
  if (!names.has(RECORD_ID_COLUMN) || !names.has(ORDINAL_COLUMN)) {
    table = `${flags.table.replace('.', '_')}_${flags.id.replaceAll('-', '_')}_portal`;
    await client.execute(hiddenColumnsView(table, flags.table, columns));
    say(`view ${table} adds ${RECORD_ID_COLUMN} and ${ORDINAL_COLUMN} to ${flags.table}`);
  }
  const fields = fieldsOf(columns, new Set(flags.facet.flat()), say);
  const [counted] = await client.queryJson(`SELECT count() AS n FROM ${quoted(table)}`);
  const now = isoNow();
  const file: DatasetFile = datasetFileSchema.parse({
    dataset_uid: newDatasetUid(),
    engine: { kind: 'clickhouse', url: server.url, table },
    metas: { default: { title: flags.title ?? flags.id } },
    fields,
    computed: { records_count: Number(counted?.n ?? 0), data_processed: now, metadata_processed: now },
  });
  if (server.given) await saveClickHouseServer(portalDir, server.url, server.credentials);
  await mkdir(dir, { recursive: true });
  const aside = path.join(dir, `.dataset.json.${randomBytes(6).toString('hex')}`);
  await writeFile(aside, `${JSON.stringify(file, null, 2)}\n`);
  await rename(aside, path.join(dir, 'dataset.json'));
  say(`${fields.length} fields, ${file.computed.records_count} records in ${server.url} ${table}`);
}
