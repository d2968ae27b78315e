// Progress of one ingest: a line per phase, then while a phase runs either a bar on a terminal
// or, anywhere else, a line every few seconds; both read DuckDB's progress of the running query.
import type { DuckDBConnection } from '@duckdb/node-api';
import { Presets, SingleBar } from 'cli-progress';

/** How often a running phase reports without a terminal. */
const LINE_EVERY_MS = 2_000;
/** How often the bar is redrawn on a terminal. */
const BAR_EVERY_MS = 200;

export interface ProgressSinks {
  /** Receives each line: phases, progress every `everyMs` (no terminal), the summary. */
  readonly line?: (message: string) => void;
  /** A terminal to draw a bar on while a phase runs, instead of the periodic lines. */
  readonly terminal?: NodeJS.WriteStream;
  /** How often a running phase reports as a line (tests make it tiny). */
  readonly everyMs?: number;
}

/** Where a command's progress goes: lines on stderr and a bar when it is a terminal; nothing when quiet. */
export function stderrProgress(quiet: boolean): {
  progress?: (message: string) => void;
  progressTerminal?: NodeJS.WriteStream;
} {
  if (quiet) return {};
  const progress = (line: string): void => void process.stderr.write(`${line}\n`);
  return process.stderr.isTTY ? { progress, progressTerminal: process.stderr } : { progress };
}

/** What 100% of a phase is: bytes of the source read, or rows written. */
export type PhaseSize = { readonly bytes: number } | { readonly rows: number };

interface Phase {
  readonly name: string;
  readonly size: PhaseSize | null;
  readonly started: number;
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const count = (n: number): string => Math.round(n).toLocaleString('en-US');

/** `47.6 of 105.8 MB, 23.0 MB/s, ETA 3 s` for a phase `fraction` done `seconds` in. */
export function describeAmount(size: PhaseSize, fraction: number, seconds: number): string {
  const rate = seconds > 0 ? fraction / seconds : 0;
  const eta = rate > 0 ? `, ETA ${Math.ceil((1 - fraction) / rate)} s` : '';
  if ('bytes' in size) {
    return `${((size.bytes * fraction) / 1e6).toFixed(1)} of ${mb(size.bytes)}, ${mb(size.bytes * rate)}/s${eta}`;
  }
  return `${count(size.rows * fraction)} of ${count(size.rows)} rows, ${count(size.rows * rate)} rows/s${eta}`;
}

/** Tracks the phases of one ingest on its DuckDB connection; `stop` before the connection closes. */
export class IngestProgress {
  private readonly started = Date.now();
  private current: Phase | null = null;
  private timer: NodeJS.Timeout | null = null;
  private bar: SingleBar | null = null;

  constructor(
    private readonly prefix: string,
    private readonly connection: DuckDBConnection,
    private readonly sinks: ProgressSinks,
  ) {}

  /** Starts a phase: prints its line (with `detail`), then reports the running query until the next phase. */
  phase(name: string, size: PhaseSize | null = null, detail?: string): void {
    this.note(detail === undefined ? name : `${name} (${detail})`);
    this.current = { name, size, started: Date.now() };
    if (this.sinks.terminal) this.startBar(this.sinks.terminal);
    else if (this.sinks.line) this.tick(this.sinks.everyMs ?? LINE_EVERY_MS, () => this.writeLine());
  }

  /** A line between phases (the current one ends). */
  note(message: string): void {
    this.stop();
    this.sinks.line?.(`${this.prefix}: [${this.seconds(this.started).toFixed(1)} s] ${message}`);
  }

  /** Ends the current phase (its bar is cleared). */
  stop(): void {
    this.end();
    this.current = null;
  }

  private seconds(since: number): number {
    return (Date.now() - since) / 1000;
  }

  private tick(everyMs: number, report: () => void): void {
    this.timer = setInterval(report, everyMs);
    this.timer.unref();
  }

  /** The running query's share done, 0..1, or null when DuckDB knows none. */
  private fraction(): number | null {
    const { percentage } = this.connection.progress;
    return percentage >= 0 ? Math.min(percentage, 100) / 100 : null;
  }

  private detail(): string {
    const phase = this.current!;
    const fraction = this.fraction();
    if (fraction === null) return `${this.seconds(phase.started).toFixed(0)} s`;
    const amount =
      phase.size && fraction > 0
        ? ` (${describeAmount(phase.size, fraction, this.seconds(phase.started))})`
        : '';
    return `${(fraction * 100).toFixed(0)}%${amount}`;
  }

  private writeLine(): void {
    this.sinks.line?.(`${this.prefix}: ${this.current!.name} ${this.detail()}`);
  }

  private startBar(terminal: NodeJS.WriteStream): void {
    const bar = new SingleBar({
      ...Presets.shades_classic,
      stream: terminal,
      format: `${this.prefix}: {phase} [{bar}] {detail}`,
      hideCursor: true,
      clearOnComplete: true,
      barsize: 20,
      fps: 1000 / BAR_EVERY_MS,
    });
    bar.start(100, 0, { phase: this.current!.name, detail: '' });
    this.bar = bar;
    this.tick(BAR_EVERY_MS, () =>
      bar.update(Math.round((this.fraction() ?? 0) * 100), { detail: this.detail() }),
    );
  }

  private end(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.bar?.stop();
    this.bar = null;
  }
}
