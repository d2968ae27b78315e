// The server's one log: pino, one JSON object a line on stdout (or pino-pretty's lines for a
// person at a terminal): the access log, start-up, reloads and errors alike.
import { pino, type DestinationStream, type LevelWithSilent, type Logger } from 'pino';
import { build as prettyStream } from 'pino-pretty';

export type { Logger } from 'pino';

/** The lowest level logged: one of pino's, or `silent`. */
export type LogLevel = LevelWithSilent;
/** One JSON object a line, or pretty lines for a person. */
export type LogFormat = 'json' | 'pretty';

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
