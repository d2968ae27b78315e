// `duckportal attach`: its flags. A dataset whose records live in a ClickHouse table.
import { optionalText, repeated, text, toggle, type FlagValues } from '../command-line/flags.js';
import { commaList } from '../command-line/parse.js';

export const ATTACH_FLAGS = {
  portal: text('DIR', 'the portal folder'),
  id: text('ID', 'the dataset id'),
  clickhouse: text(
    'URL',
    "the server's HTTP interface, http://USER:PASSWORD@host:port (credentials go to the portal's clickhouse.json; once per server)",
  ),
  table: text('NAME', 'the table (or Distributed table), optionally database.table'),
  title: optionalText('TEXT', 'the dataset title (default: the id)'),
  facet: repeated('F,...', 'fields to facet by', commaList),
  quiet: toggle('print nothing but errors', 'q'),
};

export type AttachFlags = FlagValues<typeof ATTACH_FLAGS>;
