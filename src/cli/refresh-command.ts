// `duckportal refresh --portal DIR [--keep N] [--all] [--only ID,...]`: one run of the refreshes
// of a portal's sources (for a systemd timer or cron), one line per dataset on stdout, the state
// file written for the servers' /metrics, the servers signalled when a new version went in; exit 1
// when a source failed. Two runs of one portal at once are refused (a lock file in <portal>/.tmp).
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { readRefreshState, writeRefreshState } from '../catalog/refresh-state.js';
import { refreshPortal } from '../ingest/refresh.js';
import { isAlive } from '../server/process-folder.js';
import type { RefreshFlags } from './refresh.js';
import { reloadServers } from './reload-servers.js';

/** Runs `work` holding the portal's refresh lock (taken over from a process that is gone). */
async function withLock<T>(portal: string, work: () => Promise<T>): Promise<T> {
  const lock = path.join(portal, '.tmp', 'refresh.lock');
  await mkdir(path.dirname(lock), { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const holder = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder))
        throw new Error(`${portal}: another refresh of this portal runs (process ${holder})`);
      await rm(lock, { force: true });
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

/** Refreshes the due sources, says what became of each, and signals the servers if one changed. */
export async function main(flags: RefreshFlags): Promise<void> {
  const outcomes = await withLock(flags.portal, async () => {
    const states = await readRefreshState(flags.portal, (line) => process.stderr.write(`${line}\n`));
    return refreshPortal(
      {
        portal: flags.portal,
        keep: flags.keep,
        all: flags.all,
        ...(flags.only ? { only: flags.only } : {}),
        ...(flags.maxDownload !== undefined ? { maxDownload: flags.maxDownload } : {}),
      },
      states,
      () => writeRefreshState(flags.portal, states),
    );
  });
  for (const outcome of outcomes) process.stdout.write(`${outcome.line}\n`);
  if (outcomes.length === 0 && !flags.quiet) process.stderr.write('no dataset names a source to refresh\n');
  if (flags.reload && outcomes.some((o) => o.published)) await reloadServers(flags.portal, flags.quiet);
  const failed = outcomes.filter((o) => o.result === 'failed').length;
  if (failed > 0) throw new Error(`${failed} of ${outcomes.length} sources failed (kept as they were)`);
}
