// The picture of docs/architecture.md, drawn from the imports: one band per layer, top to bottom,
// a box per room, an arrow from each room to each room whose files it imports (which pairs, not
// how many imports: a new import between rooms already linked leaves the picture as it is). Written by `make architecture`; the structure test fails when it is stale.
import type { Room } from './rooms.js';

const BOX = { width: 112, height: 30, gap: 16 };
const BAND = 64;
const MARGIN = 24;
const LABEL = 96;

/** The x, y of each room's box: rooms of a layer side by side in the table's order, centred. */
function places(rooms: readonly Room[], columns: number): Map<string, { x: number; y: number }> {
  const layers = [...new Set(rooms.map((r) => r.layer))].sort((a, b) => a - b);
  const at = new Map<string, { x: number; y: number }>();
  layers.forEach((layer, row) => {
    const inLayer = rooms.filter((r) => r.layer === layer);
    const indent = ((columns - inLayer.length) * (BOX.width + BOX.gap)) / 2;
    inLayer.forEach((room, column) =>
      at.set(room.name, {
        x: MARGIN + LABEL + indent + column * (BOX.width + BOX.gap),
        y: MARGIN + row * BAND,
      }),
    );
  });
  return at;
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The SVG text of `rooms` and the `edges` between them (keys `from -> to`). */
export function layerPicture(rooms: readonly Room[], edges: ReadonlyMap<string, number>): string {
  const layers = [...new Set(rooms.map((r) => r.layer))].sort((a, b) => a - b);
  const columns = Math.max(...layers.map((l) => rooms.filter((r) => r.layer === l).length));
  const at = places(rooms, columns);
  const width = 2 * MARGIN + LABEL + columns * (BOX.width + BOX.gap);
  const height = 2 * MARGIN + layers.length * BAND;
  const lines: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    '<defs><marker id="head" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto">' +
      '<path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>',
    `<rect width="${width}" height="${height}" fill="white"/>`,
  ];
  layers.forEach((layer, row) => {
    const y = MARGIN + row * BAND + BOX.height / 2 + 4;
    lines.push(`<text x="${MARGIN}" y="${y}" fill="#777">layer ${layer}</text>`);
  });
  for (const pair of [...edges.keys()].sort()) {
    const [from, to] = pair.split(' -> ').map((name) => at.get(name));
    if (!from || !to) continue;
    const x1 = from.x + BOX.width / 2;
    const y1 = from.y + BOX.height;
    const x2 = to.x + BOX.width / 2;
    const y2 = to.y - 2;
    lines.push(
      `<path d="M${x1},${y1} C${x1},${y1 + 24} ${x2},${y2 - 24} ${x2},${y2}" fill="none" stroke="#555" ` +
        `stroke-opacity="0.45" marker-end="url(#head)"><title>${escape(pair)}</title></path>`,
    );
  }
  for (const room of rooms) {
    const { x, y } = at.get(room.name)!;
    lines.push(
      `<rect x="${x}" y="${y}" width="${BOX.width}" height="${BOX.height}" rx="4" fill="#eef3fb" stroke="#36c"/>`,
      `<text x="${x + BOX.width / 2}" y="${y + BOX.height / 2 + 4}" text-anchor="middle">${escape(room.name)}</text>`,
    );
  }
  lines.push('</svg>', '');
  return lines.join('\n');
}
