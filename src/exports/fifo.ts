// Named pipes made by one long-lived `sh`, not by a `mkfifo` process per export. Node cannot make
// a FIFO itself, and libuv starts a child by forking the whole server on the event loop's
// thread: with 200 MB resident that took 12-20 ms per export (and blocked every other request
// meanwhile), against 2-4 ms at 1 MB. The shell is forked once, while the server is small, and
// runs `mkfifo` from its own small process: 1.6-2 ms per pipe, off the event loop.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** Reads one path per line and answers `ok` or `failed` per line, in order. */
const LOOP =
  'while IFS= read -r p; do if mkfifo -m 600 -- "$p" 2>/dev/null; then echo ok; else echo failed; fi; done';

interface Maker {
  readonly shell: ChildProcessByStdio<Writable, Readable, null>;
  /** Callers waiting for an answer, oldest first (the shell answers in order). */
  readonly waiting: Array<(answer: string | Error) => void>;
}

let maker: Maker | null = null;

/** The running shell, started on first use and again after it died. */
function currentMaker(): Maker {
  if (maker) return maker;
  const shell = spawn('sh', ['-c', LOOP], { stdio: ['pipe', 'pipe', 'ignore'] });
  const started: Maker = { shell, waiting: [] };
  const fail = (error: Error): void => {
    if (maker === started) maker = null;
    for (const answer of started.waiting.splice(0)) answer(error);
  };
  readline.createInterface({ input: shell.stdout }).on('line', (line) => {
    started.waiting.shift()?.(line);
    if (started.waiting.length === 0) listening(shell, false);
  });
  shell.once('error', fail);
  shell.once('exit', () => fail(new Error('the shell making named pipes exited')));
  shell.stdin.on('error', fail);
  // An idle shell does not keep the process alive: at its exit the shell's input closes and it ends.
  shell.unref();
  (shell.stdin as unknown as { unref(): void }).unref();
  maker = started;
  return started;
}

/** Whether the process waits for the shell's answers (only while a caller does). */
function listening(shell: Maker['shell'], on: boolean): void {
  const output = shell.stdout as unknown as { ref(): void; unref(): void };
  if (on) output.ref();
  else output.unref();
}

/** Makes a named pipe at `fifoPath`, readable and writable by this user only. */
export async function makeFifo(fifoPath: string): Promise<void> {
  if (fifoPath.includes('\n')) throw new Error(`a pipe path cannot hold a line break: ${fifoPath}`);
  const { shell, waiting } = currentMaker();
  const answer = await new Promise<string | Error>((resolve) => {
    waiting.push(resolve);
    listening(shell, true);
    shell.stdin.write(`${fifoPath}\n`);
  });
  if (answer instanceof Error) throw answer;
  if (answer !== 'ok') throw new Error(`could not make the named pipe ${fifoPath}`);
}
