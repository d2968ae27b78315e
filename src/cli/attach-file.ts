// `duckportal attach-file` and `detach-file`: their flags (the bodies are in attach-file-command.ts).
import { negatable, optionalText, text, toggle, type FlagValues } from '../command-line/flags.js';

const COMMON_FLAGS = {
  portal: text('DIR', 'the portal folder'),
  reload: negatable("signal no server: by default this host's servers of the portal reload (SIGHUP)"),
  quiet: toggle('print nothing but errors', 'q'),
};

export const ATTACH_FILE_FLAGS = {
  ...COMMON_FLAGS,
  title: optionalText('TEXT', 'the title shown for it (default: its file name)'),
  mimeType: optionalText('TYPE', 'its MIME type (default: by its extension)'),
  allAudiences: toggle('serve it to audiences under a row filter or hidden fields too'),
};

export type AttachFileFlags = FlagValues<typeof ATTACH_FILE_FLAGS>;

export const DETACH_FILE_FLAGS = COMMON_FLAGS;

export type DetachFileFlags = FlagValues<typeof DETACH_FILE_FLAGS>;
