// v1's #now(): the current instant with offsets (`years=-1, hours=-1`, plural units) and absolute
// parts (`year=2001`, singular units), read into ODSQL's now() with its named parameters.
import { node, type Expr } from '../../../odsql/index.js';
import { fail, type Cursor } from './cursor.js';

/** `name=value`: an integer, or for weekday a day's two letters and an optional count, `MO(2)`. */
const PARAMETER = /\s*([A-Za-z]+)\s*=\s*([+-]?\d+|([A-Za-z]{2})\s*(?:\(\s*([+-]?\d+)\s*\))?)\s*/y;

/** v1's two-letter weekday names and ODSQL's plural weekday parameters (the nth such day). */
const WEEKDAYS: Record<string, string> = {
  mo: 'mondays',
  tu: 'tuesdays',
  we: 'wednesdays',
  th: 'thursdays',
  fr: 'fridays',
  sa: 'saturdays',
  su: 'sundays',
};

/** One parameter as ODSQL names it: weeks become days, `weekday=MO(2)` the second Monday on. */
function parameter(
  name: string,
  value: string,
  day: string | undefined,
  count: string | undefined,
): [string, number] {
  if (day === undefined) return [name.toLowerCase(), Number(value)];
  const plural = name.toLowerCase() === 'weekday' ? WEEKDAYS[day.toLowerCase()] : undefined;
  if (!plural)
    return fail(`#now(): ${name}=${value} is not a parameter: weekday=MO(1)...SU(1) or 0...6 is expected`);
  return [plural, count === undefined ? 1 : Number(count)];
}

/** Reads `(...)` after `#now` into now()'s call; ODSQL checks the names and ranges. */
export function nowValue(cursor: Cursor): Expr {
  cursor.expect('(', 'after #now');
  const named = new Map<string, number>();
  let weeks = 0;
  while (cursor.peek() !== ')') {
    const found =
      cursor.match(PARAMETER) ?? fail(`#now() expects name=integer parameters at position ${cursor.at}`);
    const [name, value] = parameter(found[1]!, found[2]!, found[3], found[4]);
    if (name === 'weeks') weeks += value;
    else named.set(name, value);
    if (cursor.peek() === ',') cursor.at++;
    else if (cursor.peek() !== ')') fail(`Expected , or ) in #now() at position ${cursor.at}`);
  }
  cursor.at++;
  if (weeks !== 0) named.set('days', (named.get('days') ?? 0) + 7 * weeks);
  return node.call(
    'now',
    [...named].map(([name, value]) => node.comparison('=', node.field(name), node.number(value))),
  );
}
