// A long-lived child process that answers requests written to its input, in order, each answer
// the lines it prints up to an end. Exports make and widen their named pipes through one (each
// line an answer); the bench's peers run their SQL clients as one (a client's output up to a
// marker line it is asked to print).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';

export interface LineChildOptions {
  /** What its errors call it (default: the command). */
  readonly name?: string;
  /** The line that ends an answer, not part of it; without one, each line is an answer. */
  readonly endLine?: string;
  /** Whether the child keeps this process alive only while a request waits for its answer. */
  readonly onlyWhileAsked?: boolean;
}

export class LineChild {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  /** Requests waiting for their answers, oldest first. */
  private readonly waiting: { resolve: (lines: string[]) => void; reject: (error: Error) => void }[] = [];
  private lines: string[] = [];
  /** Why the child can answer no more, once it cannot. */
  private failure: Error | null = null;

  constructor(
    command: string,
    args: readonly string[],
    private readonly options: LineChildOptions = {},
  ) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => this.read(line));
    this.child.once('error', (error) => this.fail(error));
    this.child.once('exit', (code) => {
      const output = this.lines.length > 0 ? `: ${this.lines.join('\n')}` : '';
      this.fail(new Error(`${options.name ?? command} exited with ${code}${output}`));
    });
    // A child gone fails its requests from the events above, not from writes into a closed pipe.
    this.child.stdin.on('error', (error) => this.fail(error));
    if (options.onlyWhileAsked) {
      this.child.unref();
      (this.child.stdin as unknown as { unref(): void }).unref();
      this.listening(false);
    }
  }

  /** Whether the child still answers. */
  get alive(): boolean {
    return this.failure === null;
  }

  /** Writes `request` (its lines ended) and resolves to the answer's lines. */
  ask(request: string): Promise<string[]> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.listening(true);
      this.child.stdin.write(request);
    });
  }

  /** Ends the child's input and waits for it to exit. */
  close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.stdin.end();
    });
  }

  private read(line: string): void {
    const { endLine } = this.options;
    if (endLine !== undefined && line !== endLine) return void this.lines.push(line);
    const answer = endLine === undefined ? [line] : this.lines;
    this.lines = [];
    this.waiting.shift()?.resolve(answer);
    if (this.waiting.length === 0) this.listening(false);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
  }

  /** While a request waits, its answer keeps this process alive (with `onlyWhileAsked`). */
  private listening(on: boolean): void {
    if (!this.options.onlyWhileAsked) return;
    const output = this.child.stdout as unknown as { ref(): void; unref(): void };
    if (on) output.ref();
    else output.unref();
  }
}
