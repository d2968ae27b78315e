// `duckportal refresh`: its flags (the body is in refresh-command.ts).
import { negatable, optionalValue, text, toggle, value, type FlagValues } from '../command-line/flags.js';
import { commaList, positiveNumber } from '../command-line/parse.js';
import { downloadSize } from './ingest.js';

export const REFRESH_FLAGS = {
  portal: text('DIR', 'the portal folder'),
  keep: value(
    'N',
    'versions of a dataset kept: the one served and N-1 it replaced, in <portal>/versions/<id>/',
    positiveNumber,
    '3',
  ),
  all: toggle('check every source now, due or not'),
  only: optionalValue('ID,...', 'check only these datasets', commaList),
  maxDownload: optionalValue('BYTES', 'the most bytes downloaded from a source (default: 2G)', downloadSize),
  reload: negatable("signal no server: by default this host's servers of the portal reload (SIGHUP)"),
  quiet: toggle('print nothing but errors and the line of each dataset', 'q'),
};

export type RefreshFlags = FlagValues<typeof REFRESH_FLAGS>;
