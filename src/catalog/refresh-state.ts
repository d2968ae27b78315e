// `<portal>/refresh-state.json`: what `duckportal refresh` (a process of its own, run by a timer)
// last saw of each dataset's source, written whole by a rename after each run, and read by the
// servers on each scrape of /metrics (`duckportal_refresh_failures_total`) and by the next run
// (which sources are due).
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/** Where the state of a portal's refreshes is. */
export const refreshStatePath = (portalDir: string): string => path.join(portalDir, 'refresh-state.json');

const instant = z.string().datetime({ offset: true });

/** One dataset's refreshes. */
export const sourceStateSchema = z
  .object({
    /** The last check that reached the source and settled (unchanged or a new version). */
    last_success: instant.nullable().default(null),
    /** The last check, whatever came of it. */
    last_check: instant.nullable().default(null),
    last_result: z.enum(['unchanged', 'changed', 'failed']).nullable().default(null),
    /** Why the last check failed, null when it did not. */
    last_error: z.string().nullable().default(null),
    /** Checks that failed since the state file was made (the metric's value: it only grows). */
    failures_total: z.number().int().nonnegative().default(0),
  })
  .strict();
export type SourceState = z.output<typeof sourceStateSchema>;

export const refreshStateSchema = z
  .object({ datasets: z.record(z.string(), sourceStateSchema).default({}) })
  .strict();

/** Each dataset's refreshes by id (a Map: an id such as `constructor` is a key like any other). */
export type RefreshStates = Map<string, SourceState>;

/** The state of a portal's refreshes; none when the file is missing or broken (a warning says why). */
export async function readRefreshState(
  portalDir: string,
  warn: (message: string) => void = () => undefined,
): Promise<RefreshStates> {
  const file = refreshStatePath(portalDir);
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return new Map();
  try {
    return new Map(Object.entries(refreshStateSchema.parse(JSON.parse(text)).datasets));
  } catch (error) {
    warn(`${file}: not a refresh state (${(error as Error).message.split('\n')[0]}); starting afresh`);
    return new Map();
  }
}

/** Writes `value` as JSON to `file` by renaming a new file into place: a reader sees the old or the new. */
export async function replaceJsonFile(file: string, value: unknown): Promise<void> {
  const aside = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  await writeFile(aside, `${JSON.stringify(value, null, 2)}\n`);
  await rename(aside, file);
}

/** Writes the state of a portal's refreshes (datasets sorted by id). */
export async function writeRefreshState(portalDir: string, states: RefreshStates): Promise<void> {
  const datasets = Object.fromEntries([...states].sort(([a], [b]) => a.localeCompare(b)));
  await replaceJsonFile(refreshStatePath(portalDir), { datasets });
}
