// Small formatting helpers shared by the pages.

/** The plain text of an HTML fragment (a dataset description), without running or loading anything. */
export function textOf(html: string): string {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  // Blocks end with a space, so that paragraphs do not run into each other.
  for (const block of body.querySelectorAll('p, li, br, div, h1, h2, h3, h4, tr')) block.append(' ');
  return (body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** `text` cut at a word boundary near `length` characters, with an ellipsis when cut. */
export function excerpt(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), length / 2))}…`;
}

/** A date or timestamp of the API as a date in the visitor's locale, or '' for none. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** A count as the visitor's locale writes numbers (the browser's own language: undefined). */
export function formatCount(value: number): string {
  return value.toLocaleString(undefined);
}

/** The pages' words are English: their plural follows English rules, whatever the portal's language. */
const ENGLISH_PLURAL = new Intl.PluralRules('en');

/** The word for `count` things: `one` for 1 (1 record), else `other` (0 records, 2 records). */
export function noun(count: number, one: string, other = `${one}s`): string {
  return ENGLISH_PLURAL.select(count) === 'one' ? one : other;
}

/** A count and its word: "1 dataset", "3,000,000 records". */
export function counted(count: number, one: string, other = `${one}s`): string {
  return `${formatCount(count)} ${noun(count, one, other)}`;
}
