// Running a command line: errors on one line after the program's name, the usage after a usage
// error, and the exit codes every entry point shares (0 done and --help, 1 failed, 2 a usage error).
import { Command, CommanderError } from 'commander';

/** Errors after which the usage is shown: the command line itself was wrong. */
const SHOW_USAGE = new Set([
  'commander.unknownCommand',
  'commander.unknownOption',
  'commander.excessArguments',
  'commander.missingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.optionMissingArgument',
]);

/** Errors on one line after `<program>:`, usage errors exit 2 (commander would exit 1). */
function configure(command: Command, program: string): void {
  command.configureOutput({
    outputError: (text, write) => write(`${program}: ${text.replace(/^error: /, '')}`),
  });
  command.exitOverride((error) => {
    if (SHOW_USAGE.has(error.code)) {
      process.stderr.write('\n');
      command.outputHelp({ error: true });
    }
    throw error;
  });
  for (const sub of command.commands) configure(sub, program);
}

/**
 * A reader that goes away (`duckportal keys create | head -1`) ends what the command prints, not
 * the command: stdout's EPIPE is dropped (Node makes every later write a no-op on the closed
 * stream), the command finishes its work and exits as it would have. Any other stdout error stays fatal.
 */
function ignoreClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

/** Parses process.argv with `root` and runs the chosen action, setting the exit code. */
export async function runProgram(root: Command): Promise<void> {
  ignoreClosedStdout();
  configure(root, root.name());
  try {
    await root.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2;
    } else {
      process.stderr.write(`${root.name()}: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    }
  }
}
