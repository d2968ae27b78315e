// What a command that changed a portal folder does last: SIGHUP to this host's `serve` processes
// of that portal (found by their process folders in <portal>/.tmp), so that they serve the change.
import { servingProcesses } from '../server/process-folder.js';

/** Signals this host's servers of `portal` to reload, saying which on stderr unless `quiet`. */
export async function reloadServers(portal: string, quiet: boolean): Promise<number[]> {
  const pids = await servingProcesses(portal);
  const signalled = pids.filter((pid) => {
    try {
      process.kill(pid, 'SIGHUP');
      return true;
    } catch {
      // Gone since it was found, or another user's: that server reloads on its own next signal.
      return false;
    }
  });
  if (!quiet && signalled.length > 0)
    process.stderr.write(
      `reloading: SIGHUP sent to ${signalled.map((pid) => `process ${pid}`).join(', ')}\n`,
    );
  return signalled;
}
