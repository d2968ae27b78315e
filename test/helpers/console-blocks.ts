// The commands a Markdown document shows in its ```console blocks (those indented in a list item
// too), and the output it prints for each, so that a test can run them and compare. A line
// starting with `$ ` is a command (a line ending in a backslash continues it on the next); the
// lines up to the next command are the output it shows, where `...` stands for text left out and
// a line starting with `#` is a comment.

/** One command of a console block, with the output the document shows for it. */
export interface ShownCommand {
  /** The 1-based line of the document where the command starts. */
  readonly line: number;
  readonly command: string;
  readonly output: string[];
}

/** Every command of the document's ```console blocks, in order. */
export function consoleCommands(markdown: string): ShownCommand[] {
  const commands: { line: number; command: string; output: string[] }[] = [];
  let inBlock = false;
  let indent = '';
  let continuing = false;
  markdown.split('\n').forEach((line, index) => {
    if (line.trimStart().startsWith('```')) {
      inBlock = !inBlock && line.trim() === '```console';
      indent = line.slice(0, line.length - line.trimStart().length);
      continuing = false;
      return;
    }
    if (!inBlock) return;
    // A block inside a list item is indented as the item is: its lines without that indent.
    const text = line.startsWith(indent) ? line.slice(indent.length) : line;
    const last = commands.at(-1);
    if (continuing && last) last.command += `\n${text}`;
    else if (text.startsWith('$ ')) commands.push({ line: index + 1, command: text.slice(2), output: [] });
    else if (last) last.output.push(text);
    continuing = text.endsWith('\\');
  });
  return commands;
}

/** The `host:port` and `--port N` ports a command names. */
export function namedPorts(command: string): number[] {
  return [...command.matchAll(/(?:(?:localhost|127\.0\.0\.1):|--port )(\d{2,5})\b/g)].map((m) =>
    Number(m[1]),
  );
}

const ANY = '@@any@@';

/**
 * Whether `actual` (a command's standard output) shows what `shown` says. Shown output that
 * parses as JSON once `[...]`, `{...}` and `"..."` are read as "anything" must equal the actual
 * JSON value (object keys exactly, strings with `...` as a pattern); other shown lines must each
 * match a line of the output, in order, `...` matching any text, runs of white space equal and
 * a trailing `  # comment` ignored. Comment lines are not output.
 */
export function showsOutput(printed: string[], actual: string): boolean {
  const shown = printed.filter((line) => !line.trimStart().startsWith('#'));
  const text = shown.join('\n').trim();
  if (text === '') return true;
  const pattern = shownJson(text);
  if (pattern !== undefined) {
    try {
      return matchesJson(pattern, JSON.parse(actual));
    } catch {
      return false;
    }
  }
  const lines = actual.split('\n');
  let at = 0;
  for (const line of shown) {
    const wanted = oneSpaced(line.replace(/\s+#.*$/, ''));
    if (wanted === '') continue;
    const regex = textPattern(wanted);
    while (at < lines.length && !regex.test(oneSpaced(lines[at]!))) at++;
    if (at === lines.length) return false;
    at++;
  }
  return true;
}

function shownJson(text: string): unknown {
  const literal = text
    .replaceAll('[...]', `"${ANY}"`)
    .replaceAll('{...}', `"${ANY}"`)
    .replaceAll('"..."', `"${ANY}"`);
  try {
    return JSON.parse(literal);
  } catch {
    return undefined;
  }
}

function matchesJson(pattern: unknown, actual: unknown): boolean {
  if (pattern === ANY) return true;
  if (typeof pattern === 'string')
    return pattern.includes('...')
      ? typeof actual === 'string' && textPattern(pattern).test(actual)
      : pattern === actual;
  if (Array.isArray(pattern))
    return (
      Array.isArray(actual) &&
      pattern.length === actual.length &&
      pattern.every((p, i) => matchesJson(p, actual[i]))
    );
  if (pattern !== null && typeof pattern === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const keys = Object.keys(pattern);
    const actualKeys = Object.keys(actual);
    return (
      keys.length === actualKeys.length &&
      keys.every(
        (key) => Object.hasOwn(actual, key) && matchesJson((pattern as never)[key], (actual as never)[key]),
      )
    );
  }
  return pattern === actual;
}

/** Text with each run of white space (tabs of a table included) as one space. */
function oneSpaced(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function textPattern(shown: string): RegExp {
  const parts = shown.split('...').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's');
}
