// The # functions of v1's q read into ODSQL: #null, #exact, #startswith, #search, #distance,
// #polygon as conditions, and #now() as a date value with its offsets and absolute parts.
import type { Field } from '../../../catalog/schema.js';
import { findField, node, type Expr } from '../../../odsql/index.js';
import { defaultGeoField, meetsPolygon, numberList, pointList, withinMeters } from '../geo-text.js';
import { fail, type Cursor } from './cursor.js';
import { matches } from './values.js';

/** An argument as written: a quoted text or a bare token. */
interface Arg {
  readonly text: string;
  readonly quoted: boolean;
}

const TOKEN = /[^\s,()"]+/y;

/** The arguments up to the closing parenthesis (the opening one is read). */
function readArgs(cursor: Cursor, name: string): Arg[] {
  const args: Arg[] = [];
  if (cursor.peek() === ')') return (cursor.at++, args);
  for (;;) {
    const quoted = cursor.peek() === '"';
    const text = quoted ? cursor.quoted() : cursor.match(TOKEN)?.[0];
    if (text === undefined) return fail(`Expected an argument of #${name} at position ${cursor.at}`);
    args.push({ text, quoted });
    const next = cursor.peek();
    cursor.at++;
    if (next === ')') return args;
    if (next !== ',') return fail(`Expected , or ) in #${name} at position ${cursor.at - 1}`);
  }
}

type Builder = (args: readonly Arg[], fields: readonly Field[]) => Expr;

const fieldOf = (fields: readonly Field[], arg: Arg | undefined, fn: string): Field =>
  (arg && findField(fields, arg.text)) ?? fail(`#${fn}: unknown field ${arg?.text ?? ''}`.trim());

/** A builder of `#fn(field, "value")`. */
const fieldAndValue =
  (fn: string, build: (field: Field, value: Arg) => Expr): Builder =>
  (args, fields) =>
    args.length === 2
      ? build(fieldOf(fields, args[0], fn), args[1]!)
      : fail(`#${fn} expects a field and a value`);

/** The geo field a #distance or #polygon names first, else the dataset's first geo field. */
function geoArgs(args: readonly Arg[], fields: readonly Field[], fn: string): [string, readonly Arg[]] {
  const named = args[0] && !args[0].quoted ? findField(fields, args[0].text) : null;
  if (named) return [named.name, args.slice(1)];
  const field = defaultGeoField(fields) ?? fail(`#${fn}: the dataset has no geographic field`);
  return [field.name, args];
}

/** `#distance([field,] "lat, lon", meters)`, also `#distance([field,] lat, lon, meters)`. */
const distance: Builder = (args, fields) => {
  const [field, rest] = geoArgs(args, fields, 'distance');
  const numbers = numberList(rest.map((a) => a.text).join(','), 3);
  if (!numbers) return fail('#distance expects a field, "latitude, longitude" and a distance in meters');
  const [lat, lon, meters] = numbers as [number, number, number];
  return withinMeters(field, lat, lon, meters);
};

/** `#polygon([field,] "(lat,lon),(lat,lon),...")`. */
const polygon: Builder = (args, fields) => {
  const [field, rest] = geoArgs(args, fields, 'polygon');
  const points = rest.length === 1 ? pointList(rest[0]!.text) : null;
  if (!points) return fail('#polygon expects a field and "(lat,lon),(lat,lon),(lat,lon)..."');
  return meetsPolygon(field, points);
};

const CONDITIONS: Record<string, Builder> = {
  null: (args, fields) =>
    args.length === 1
      ? node.is(node.field(fieldOf(fields, args[0], 'null').name, true), 'null')
      : fail('#null expects a field'),
  exact: fieldAndValue('exact', (field, value) => matches(field, value, true)),
  startswith: fieldAndValue('startswith', (field, value) =>
    node.call('startswith', [node.field(field.name, true), node.string(value.text)]),
  ),
  search: (args, fields) =>
    args.length === 1
      ? node.call('search', [node.star(), node.string(args[0]!.text)])
      : fieldAndValue('search', (field, value) =>
          node.call('search', [node.field(field.name, true), node.string(value.text)]),
        )(args, fields),
  distance,
  polygon,
  attr: () => fail('#attr is not supported: duckportal has no SAML attributes'),
};

/** A # function used as a condition, its name read (`#name(`); #now is a value, not a condition. */
export function condition(cursor: Cursor, name: string, fields: readonly Field[]): Expr {
  const lower = name.toLowerCase();
  if (lower === 'now')
    fail('#now() is a date value: compare a date field with it, as in date>=#now(days=-7)');
  const build = CONDITIONS[lower];
  if (!build) {
    return fail(
      `Unknown function #${name}: expected one of ${Object.keys(CONDITIONS)
        .map((n) => `#${n}`)
        .join(', ')}`,
    );
  }
  return build(readArgs(cursor, name), fields);
}
