// The character cursor of the v1 q reader: blanks, operators, quoted texts and bare words, and
// errors that name q and the position of the problem.
import { QueryLangError } from '../../../odsql/index.js';

/** Throws the error of an unreadable q (a 400 naming the q clause). */
export const fail = (problem: string): never => {
  throw new QueryLangError(problem, ['q']);
};

/** A bare word: up to a blank, a parenthesis or a double quote. */
const WORD = /[^\s()"]+/y;
/** A double-quoted text; a backslash escapes the next character. */
const QUOTED = /"((?:\\.|[^"\\])*)"/sy;

/** A position in the q text, moved forward by what each reader recognizes. */
export class Cursor {
  private i = 0;
  constructor(readonly text: string) {}

  /** The position, for messages and for going back. */
  get at(): number {
    return this.i;
  }

  set at(position: number) {
    this.i = position;
  }

  /** The next character after blanks, or undefined at the end. */
  peek(): string | undefined {
    this.skip();
    return this.text[this.i];
  }

  skip(): void {
    while (/\s/.test(this.text[this.i] ?? '')) this.i++;
  }

  /** Consumes a sticky regular expression's match at the position (no blanks skipped). */
  match(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.i;
    const found = pattern.exec(this.text);
    if (found) this.i += found[0].length;
    return found;
  }

  /**
   * Consumes an operator word (AND, OR, NOT: upper case, as the v1 documentation writes them)
   * followed by a blank, a parenthesis, a quote, a function or the end.
   */
  keyword(word: string): boolean {
    this.skip();
    const next = this.text[this.i + word.length];
    const found = this.text.startsWith(word, this.i) && (next === undefined || /[\s("#]/.test(next));
    if (found) this.i += word.length;
    return found;
  }

  /** Consumes `char` after blanks, or fails naming what was expected. */
  expect(char: string, after: string): void {
    if (this.peek() !== char) fail(`Expected ${char} ${after} at position ${this.i}`);
    this.i++;
  }

  quoted(): string {
    const found = this.match(QUOTED);
    if (!found) return fail(`Quoted text not closed at position ${this.i}`);
    return found[1]!.replace(/\\(.)/gs, '$1');
  }

  word(): string {
    const found = this.match(WORD);
    return found ? found[0] : fail(`Expected a value at position ${this.i}`);
  }

  /** A quoted text or a bare word, and whether it was quoted. */
  value(): { text: string; quoted: boolean } {
    this.skip();
    return this.text[this.i] === '"'
      ? { text: this.quoted(), quoted: true }
      : { text: this.word(), quoted: false };
  }

  /** Fails at the position, showing what is there. */
  unexpected(): never {
    return fail(`Unexpected ${this.text.slice(this.i, this.i + 20)} at position ${this.i}`);
  }
}
