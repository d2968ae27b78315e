// Point tests against the edges of a constant geometry, split in horizontal slabs so each row tests a few edges.
//
// A point at latitude y can only cross, or lie on, edges whose latitude range holds y. A small
// geometry's edges are written out as comparisons; a larger one's are sorted into equal-height
// slabs held in one constant list literal, which each row indexes by its latitude and filters
// with a lambda. (A CASE tree over slabs was tried: DuckDB pays for every branch on every chunk.)
import type { Position, Segment } from '../../functions/geo-geometry.js';
import { lambdaName, listConstant, num } from './geo-sql.js';

/** Up to this many edges are written out as comparisons; more go into slabs. */
const UNROLLED_EDGES = 32;
/** Slabs per edge to start from, and the copies of edges (an edge spans slabs) allowed per edge. */
const SLABS_PER_EDGE = 0.5;
const COPIES_PER_EDGE = 4;
/** Latitude margin of the on-edge test, in degrees (about 0.1 mm): keep in step with TOUCH_DEGREES. */
const TOUCH = 1e-9;

/** One edge as the numbers its test reads, with the latitudes where the test can hold. */
interface Item {
  readonly from: number;
  readonly to: number;
  readonly numbers: readonly number[];
}

/** A test over one item's numbers, given as SQL (constants, or fields of a lambda variable). */
type ItemTest = (numbers: readonly string[]) => string;

/** Equal-height slabs over the items' latitudes, halved in number until edges are not copied too often. */
function slabsOf(items: readonly Item[]): { from: number; height: number; slabs: Item[][] } {
  const from = Math.min(...items.map((i) => i.from));
  const span = Math.max(...items.map((i) => i.to)) - from;
  for (let count = Math.max(1, Math.ceil(items.length * SLABS_PER_EDGE)); ; count = Math.ceil(count / 2)) {
    const height = span / count || 1;
    const slabs = Array.from({ length: count }, (_, k) =>
      items.filter((i) => i.from <= from + (k + 1) * height && i.to >= from + k * height),
    );
    const copies = slabs.reduce((sum, slab) => sum + slab.length, 0);
    if (copies <= COPIES_PER_EDGE * items.length || count === 1) return { from, height, slabs };
  }
}

/** How many items hold, as SQL: written out for a few, else over the slab of latitude y. */
function countSql(
  items: readonly Item[],
  y: string,
  test: ItemTest,
  combine: (count: string) => string,
): string {
  if (items.length === 0) return 'false';
  if (items.length <= UNROLLED_EDGES) {
    return combine(`(${items.map((i) => `(${test(i.numbers.map(num))})::INTEGER`).join(' + ')})`);
  }
  const { from, height, slabs } = slabsOf(items);
  const slabLiteral = listConstant(
    slabs.map((slab) => slab.map((i) => i.numbers)),
    3,
  );
  const index = `least(greatest(floor((${y} - ${num(from)}) / ${num(height)}), 0), ${slabs.length - 1})::INTEGER + 1`;
  const e = lambdaName('edge');
  const fields = items[0]!.numbers.map((_, k) => `${e}[${k + 1}]`);
  return combine(`len(list_filter((${slabLiteral})[${index}], lambda ${e}: ${test(fields)}))`);
}

const low = (s: Segment) => Math.min(s[1], s[3]);
const high = (s: Segment) => Math.max(s[1], s[3]);

/** Whether (x, y) is inside the rings (even-odd over all of them: holes are holes; parts must not overlap). */
export function insideRingsSql(rings: readonly (readonly Position[])[], x: string, y: string): string {
  const items = rings.flatMap((ring) =>
    ring.slice(1).flatMap((b, i): Item[] => {
      const a = ring[i]!;
      if (a[1] === b[1]) return []; // a horizontal edge never crosses a horizontal ray
      const [from, to] = [Math.min(a[1], b[1]), Math.max(a[1], b[1])];
      return [{ from, to, numbers: [from, to, a[0], a[1], (b[0] - a[0]) / (b[1] - a[1])] }];
    }),
  );
  // A rightward ray from (x, y) crosses the edge: y within its latitudes, x left of it there.
  const crosses: ItemTest = ([lo, hi, x1, y1, slope]) =>
    `${y} >= ${lo} AND ${y} < ${hi} AND ${x} < ${x1} + (${y} - ${y1}) * ${slope}`;
  return countSql(items, y, crosses, (count) => `${count} % 2 = 1`);
}

/** Whether (x, y) lies on one of the segments (collinear to 1e-12 square degrees, within its box). */
export function onAnySegmentSql(segments: readonly Segment[], x: string, y: string): string {
  const items = segments.map((s): Item => {
    const [from, to] = [low(s) - TOUCH, high(s) + TOUCH];
    return {
      from,
      to,
      numbers: [Math.min(s[0], s[2]) - TOUCH, Math.max(s[0], s[2]) + TOUCH, from, to, ...s],
    };
  });
  const touches: ItemTest = ([x0, x9, y0, y9, x1, y1, x2, y2]) =>
    `${x} BETWEEN ${x0} AND ${x9} AND ${y} BETWEEN ${y0} AND ${y9}` +
    ` AND sign(round((${x2} - ${x1}) * (${y} - ${y1}) - (${y2} - ${y1}) * (${x} - ${x1}), 12)) = 0`;
  return countSql(items, y, touches, (count) => `${count} > 0`);
}
