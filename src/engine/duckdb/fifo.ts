// Named pipes made and widened by one long-lived `perl` (Debian's perl-base is Essential), not by
// a process per export. Node can neither make a FIFO nor size a pipe, and libuv starts a child by
// forking the whole server on the event loop's thread, blocking every other request for longer
// the larger the server is. The helper is forked once, while the server is small, and answers off
// the event loop (measured: docs/exports.md and bench/README.md, Measurements behind the code).
//
// Widening: a pipe holds 64 KiB by default, so DuckDB's writer and the server's reader take
// turns every 64 KiB. At 1 MiB (the unprivileged maximum, /proc/sys/fs/pipe-max-size), read
// 256 KiB at a time, they take turns sixteen times less often and a large CSV export runs
// faster (docs/exports.md, Who writes the bytes). The engine's cap of 32 exports at once
// keeps widened pipes within 32 MiB, half the memory an unprivileged user's pipes may take
// (/proc/sys/fs/pipe-user-pages-soft, 64 MiB) before Linux makes each new pipe of theirs 8 KiB.
// Widening can fail (past that limit, or on a kernel without F_SETPIPE_SZ): the pipe then keeps
// its 64 KiB.
import { LineChild } from '../../line-child.js';

/** The bytes a widened pipe holds. */
export const WIDE_PIPE_BYTES = 1024 * 1024;

/** F_SETPIPE_SZ in Linux's fcntl.h (F_LINUX_SPECIFIC_BASE + 7); Perl's Fcntl does not export it. */
const F_SETPIPE_SZ = 1031;

/**
 * Reads one request per line, `make <path>` (a FIFO of mode 600) or `widen <path>` (opens the
 * pipe without blocking, sets its size, closes it), and answers `ok` or `failed` per line, in order.
 */
const HELPER = `
use POSIX qw(mkfifo); use Fcntl;
$| = 1;
while (my $line = <STDIN>) {
  chomp $line;
  my ($verb, $path) = split / /, $line, 2;
  my $ok = 0;
  if ($verb eq 'make') { $ok = mkfifo($path, 0600) && chmod(0600, $path); }
  elsif ($verb eq 'widen' && sysopen(my $pipe, $path, O_RDWR | O_NONBLOCK)) {
    $ok = fcntl($pipe, ${F_SETPIPE_SZ}, ${WIDE_PIPE_BYTES});
    close $pipe;
  }
  print $ok ? "ok\\n" : "failed\\n";
}`;

let helper: LineChild | null = null;

/** Sends one request to the helper (started on first use and again after it died); whether it did it. */
async function ask(verb: 'make' | 'widen', fifoPath: string): Promise<boolean> {
  if (fifoPath.includes('\n')) throw new Error(`a pipe path cannot hold a line break: ${fifoPath}`);
  if (!helper?.alive) helper = new LineChild('perl', ['-e', HELPER], { onlyWhileAsked: true });
  const [answer] = await helper.ask(`${verb} ${fifoPath}\n`);
  return answer === 'ok';
}

/**
 * Starts the helper, or says clearly why it cannot run: called as the server starts, so that a
 * machine without perl is told then, not by its first export (and the fork is made while small).
 */
export async function startFifoHelper(): Promise<void> {
  try {
    await ask('widen', '/');
  } catch (error) {
    throw new Error(
      `exports make their named pipes with perl, which did not run (${(error as Error).message}): install perl (Debian: perl-base)`,
    );
  }
}

/** Makes a named pipe at `fifoPath`, readable and writable by this user only. */
export async function makeFifo(fifoPath: string): Promise<void> {
  if (!(await ask('make', fifoPath))) throw new Error(`could not make the named pipe ${fifoPath}`);
}

/**
 * Sets the buffer of the pipe at `fifoPath` to WIDE_PIPE_BYTES; false if it keeps its size (for
 * any reason: the pipe then works as before). The size belongs to the open pipe, so the caller
 * holds it open from before the call.
 */
export function widenFifo(fifoPath: string): Promise<boolean> {
  return ask('widen', fifoPath).catch(() => false);
}
