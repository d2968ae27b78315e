// The flag kit: each command declares its flags once, as a table `{ name: kind(...) }`, and gets
// them back parsed and typed. Commander reads them, checks each value as it parses (a bad value is
// a usage error naming the flag) and shows every default, and env var where there is one, in --help.
// Shared by both entry points (src/cli.ts and bench/main.ts), so it imports neither.
import { Command, InvalidArgumentError, Option } from 'commander';

/** One flag: how commander declares it under its name; `V` types the value the action receives. */
export interface Flag<V> {
  readonly declare: (name: string) => Option;
  /** The action's value when the flag is not given and has no default to show in --help. */
  readonly absent?: V;
}

export type FlagTable = Readonly<Record<string, Flag<unknown>>>;

/** What a command's action receives for its flag table. */
export type FlagValues<T extends FlagTable> = {
  readonly [K in keyof T]: T[K] extends Flag<infer V> ? V : never;
};

/** A command: its flags, its arguments (`<file>`), and its action, which loads the implementation. */
export interface CommandSpec<T extends FlagTable> {
  readonly name: string;
  readonly summary: string;
  /** `<file>` -> what it is, in order. */
  readonly args?: Readonly<Record<string, string>>;
  readonly flags: T;
  /** Each flag can also come from `DUCKPORTAL_<FLAG>` (the flag wins). */
  readonly env?: boolean;
  readonly action: (flags: FlagValues<T>, args: string[]) => Promise<void>;
}

/** A string flag; `fallback` is its default (without one the flag is required). */
export function text(placeholder: string, description: string, fallback?: string): Flag<string> {
  return {
    declare: (name) => option(name, placeholder, description, { fallback, required: fallback === undefined }),
  };
}

/** A string flag that may be left out. */
export function optionalText(placeholder: string, description: string): Flag<string | undefined> {
  return { declare: (name) => option(name, placeholder, description, {}) };
}

/** A flag whose text `parse` turns into a value (throwing an Error that says what it expected). */
export function value<V>(
  placeholder: string,
  description: string,
  parse: (text: string) => V,
  fallback: string,
): Flag<V> {
  return { declare: (name) => option(name, placeholder, description, { parse, fallback }) };
}

/** A parsed flag that may be left out. */
export function optionalValue<V>(
  placeholder: string,
  description: string,
  parse: (text: string) => V,
): Flag<V | undefined> {
  return { declare: (name) => option(name, placeholder, description, { parse }) };
}

/** A flag given any number of times (each value parsed by `parse`); none gives []. */
export function repeated<V = string>(
  placeholder: string,
  description: string,
  parse: (text: string) => V = (t) => t as V,
): Flag<V[]> {
  return {
    declare: (name) =>
      option(name, placeholder, `${description} (repeatable)`, {}).argParser(
        (text: string, previous: V[] = []) => [...previous, checked(parse)(text)],
      ),
    absent: [],
  };
}

/** One of a fixed list of words. */
export function choice<W extends string>(
  placeholder: string,
  description: string,
  words: readonly W[],
  fallback: W,
): Flag<W> {
  return { declare: (name) => option(name, placeholder, description, { fallback }).choices(words) };
}

/** An on/off flag, off unless given; `short` is its one-letter form. */
export function toggle(description: string, short?: string): Flag<boolean> {
  return {
    declare: (name) =>
      new Option(`${short ? `-${short}, ` : ''}--${kebab(name)}`, description).default(false),
  };
}

/** An on flag that `--no-<name>` turns off. */
export function negatable(description: string): Flag<boolean> {
  return { declare: (name) => new Option(`--no-${kebab(name)}`, description) };
}

/** The commander command of a spec, with every flag from its table. */
export function buildCommand<T extends FlagTable>(spec: CommandSpec<T>): Command {
  const command = new Command(spec.name).description(spec.summary);
  const args = Object.entries(spec.args ?? {});
  for (const [arg, description] of args) command.argument(arg, description);
  for (const [name, flag] of Object.entries(spec.flags)) {
    const declared = flag.declare(name);
    if (spec.env) declared.env(envName(name));
    command.addOption(declared);
  }
  command.hook('preAction', readEnvToggles);
  command.action(async (...received: unknown[]) => {
    const values = command.opts();
    for (const [name, flag] of Object.entries(spec.flags)) values[name] ??= flag.absent;
    await spec.action(values as FlagValues<T>, received.slice(0, args.length) as string[]);
  });
  return command;
}

/** `DUCKPORTAL_MAX_AGE` for `maxAge`. */
export function envName(name: string): string {
  return `DUCKPORTAL_${kebab(name).replaceAll('-', '_').toUpperCase()}`;
}

/**
 * Commander turns an on/off flag on whenever its variable is set, even to 0 (and a `--no-` flag's
 * off): here 1/true/yes/on turn it on, 0/false/no/off or empty off (the variable is named after the
 * thing, DUCKPORTAL_SHARED_EXPORTS for `--no-shared-exports`), anything else is a usage error.
 */
function readEnvToggles(command: Command): void {
  for (const option of command.options) {
    const name = option.attributeName();
    const onOff = option.isBoolean() || option.negate;
    if (!onOff || !option.envVar || command.getOptionValueSource(name) !== 'env') continue;
    const text = (process.env[option.envVar] ?? '').trim().toLowerCase();
    if (['0', 'false', 'no', 'off', ''].includes(text)) command.setOptionValueWithSource(name, false, 'env');
    else if (['1', 'true', 'yes', 'on'].includes(text)) command.setOptionValueWithSource(name, true, 'env');
    else
      command.error(`${option.envVar}=${process.env[option.envVar]}: expected 1 or 0 (true or false)`, {
        code: 'commander.invalidArgument',
      });
  }
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function option(
  name: string,
  placeholder: string,
  description: string,
  how: { parse?: (text: string) => unknown; fallback?: string | undefined; required?: boolean },
): Option {
  const declared = new Option(`--${kebab(name)} <${placeholder}>`, description);
  if (how.parse) declared.argParser(checked(how.parse));
  if (how.fallback !== undefined)
    declared.default(how.parse ? how.parse(how.fallback) : how.fallback, how.fallback);
  if (how.required) declared.makeOptionMandatory();
  return declared;
}

/** `parse` with its Error turned into commander's usage error (one line naming the flag, exit 2). */
function checked<V>(parse: (text: string) => V): (text: string) => V {
  return (text) => {
    try {
      return parse(text);
    } catch (error) {
      throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
    }
  };
}
