// The server's one log: pino, one JSON object a line on stdout (or pino-pretty's lines for a
// person at a terminal): the access log, start-up, reloads and errors alike.
import { pino, type DestinationStream, type Logger } from 'pino';
import { build as prettyStream } from 'pino-pretty';

import type { LogFormat, LogLevel } from './cli/serve.js';

export type { Logger } from 'pino';

/** A logger at `level` writing to `destination` (stdout unless given), as JSON or pretty lines. */
export function createLogger(
  level: LogLevel = 'info',
  format: LogFormat = 'json',
  destination?: DestinationStream,
): Logger {
  const options = { level, base: null, timestamp: pino.stdTimeFunctions.isoTime };
  if (format === 'pretty') return pino(options, prettyStream({ destination: destination ?? 1, sync: true }));
  return pino(options, destination ?? pino.destination({ dest: 1, sync: true }));
}
