// The downloads section of the bench's report: per shared file, the first byte, the throughput
// against nginx and the resumed download beside issue 42's targets; the lazy reader's bytes; and
// nginx's command and config, the baseline printed as the other sections print their SQL.
import { DOWNLOAD_TARGETS, FIRST_BYTE_TURNS, type DownloadsResult } from './downloads.js';
import { markdownTable, type MeasuredRatio } from './harness.js';
import { ms } from './report-tables.js';

const megabytes = (bytes: number): string => (bytes / 1e6).toFixed(bytes < 1e8 ? 1 : 0);

/** The section's lines under its title; `ratio` writes a measured ratio with its interval. */
export function downloadsText(result: DownloadsResult, ratio: (r: MeasuredRatio) => string): string[] {
  const { firstByteMs, throughput, lazyShare } = DOWNLOAD_TARGETS;
  const { lazy } = result;
  const share = lazy.servedBytes / lazy.fileBytes;
  return [
    "Each dataset's whole export in its default form (`/exports/csv`, `/exports/parquet`), once its shared file is written,",
    'sent by duckportal (`serve`, whose shared files are on by default; response cache off) and by nginx from the same file on the same disk.',
    `First byte: the p50 of ${FIRST_BYTE_TURNS} GETs on new connections from a Node client, the two servers in turns. Throughput: whole`,
    "downloads by `curl -sSf -o /dev/null` from each server in turns (a, b, b, a...), the ratio nginx's time over",
    "duckportal's. Resumed: a download dropped after half the file, then `curl -C - -o` on the same file, compared by SHA-256.",
    '',
    markdownTable(
      [
        'file',
        'MB',
        `first byte p50 (ms), target < ${firstByteMs}`,
        'nginx first byte (ms)',
        'duckportal MB/s',
        'nginx MB/s',
        `throughput vs nginx, target >= ${throughput}x`,
        '`curl -C -` after a cut',
      ],
      result.files.map((f) => [
        `${f.dataset} ${f.format}`,
        megabytes(f.bytes),
        ms(f.firstByteMs[0]),
        ms(f.firstByteMs[1]),
        (f.bytes / 1e3 / f.downloadMs[0]).toFixed(0),
        (f.bytes / 1e3 / f.downloadMs[1]).toFixed(0),
        ratio(f.throughput),
        `cut at ${megabytes(f.cutAt)} MB, ${f.resumedIdentical ? 'identical' : 'DIFFERENT'}`,
      ]),
    ),
    '',
    `Lazy reader: hyparquet (\`asyncBufferFromUrl\`, \`parquetReadObjects\`) reading ${lazy.rows.toLocaleString('en')} rows, two columns`,
    `(delay, origin) of the middle row group of flights30m's shared Parquet (${megabytes(lazy.fileBytes)} MB, ${lazy.rowGroups} row groups of`,
    `${lazy.groupRows.toLocaleString('en')} rows) over HTTP: ${lazy.requests} requests, ${lazy.servedBytes.toLocaleString('en')} bytes sent by the server`,
    `(counted on the wire, headers included, by a TCP proxy in front of it): ${(share * 100).toFixed(2)}% of the file (target < ${lazyShare * 100}%).`,
    '',
    `The baseline: \`${result.nginx.command}\` (Debian's nginx, installed by \`make bench\` when missing), with this config:`,
    '',
    '```nginx',
    result.nginx.config.trimEnd(),
    '```',
  ];
}
