// The site's icon, drawn here rather than kept as a binary file: a yellow duck on the pages'
// accent blue, 32 x 32 pixels, each pixel 4 x 4 samples for smooth edges, written as a
// Windows icon (ICO holding one 32-bit BMP with its alpha), which every browser reads at
// /favicon.ico. web/build.mjs writes it into dist/web; src/web/assets.ts serves it.

const SIZE = 32;
const SAMPLES = 4;

/** The shapes, back to front: a colour [r, g, b] and whether the point (x, y) is inside. */
const SHAPES = [
  // The pages' accent (site.css --accent), a square with rounded corners.
  [[11, 92, 173], (x, y) => roundedSquare(x, y, 1, 31, 7)],
  [[250, 204, 21], (x, y) => ellipse(x, y, 14, 21.5, 10.5, 6.5)],
  [[250, 204, 21], (x, y) => ellipse(x, y, 20.5, 12, 5.5, 5.5)],
  [[249, 115, 22], (x, y) => ellipse(x, y, 26.5, 13.2, 3.6, 1.9)],
  [[30, 41, 59], (x, y) => ellipse(x, y, 21.8, 10.6, 1.2, 1.2)],
];

function ellipse(x, y, cx, cy, rx, ry) {
  return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
}

function roundedSquare(x, y, low, high, radius) {
  if (x < low || x > high || y < low || y > high) return false;
  const cx = Math.min(Math.max(x, low + radius), high - radius);
  const cy = Math.min(Math.max(y, low + radius), high - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** The pixel at column x, row y (from the top): [r, g, b, a], the samples' colours averaged. */
function pixel(x, y) {
  let [r, g, b, a] = [0, 0, 0, 0];
  for (let i = 0; i < SAMPLES; i++) {
    for (let j = 0; j < SAMPLES; j++) {
      const sx = x + (i + 0.5) / SAMPLES;
      const sy = y + (j + 0.5) / SAMPLES;
      const shape = SHAPES.findLast(([, inside]) => inside(sx, sy));
      if (!shape) continue;
      const [colour] = shape;
      r += colour[0];
      g += colour[1];
      b += colour[2];
      a += 1;
    }
  }
  // Colours averaged over the covered samples only, so edges fade to transparent, not to black.
  return a === 0 ? [0, 0, 0, 0] : [r / a, g / a, b / a, (255 * a) / SAMPLES ** 2].map(Math.round);
}

/** The icon's bytes: ICONDIR, one ICONDIRENTRY, a BITMAPINFOHEADER, BGRA rows bottom-up, the AND mask. */
export function faviconIco() {
  const pixels = SIZE * SIZE * 4;
  const mask = (SIZE / 8) * SIZE; // one bit a pixel, rows of 4 bytes; all 0: the alpha decides
  const image = 40 + pixels + mask;
  const bytes = Buffer.alloc(6 + 16 + image);
  bytes.writeUInt16LE(1, 2); // type: icon
  bytes.writeUInt16LE(1, 4); // one image
  bytes.writeUInt8(SIZE, 6);
  bytes.writeUInt8(SIZE, 7);
  bytes.writeUInt16LE(1, 10); // planes
  bytes.writeUInt16LE(32, 12); // bits a pixel
  bytes.writeUInt32LE(image, 14);
  bytes.writeUInt32LE(22, 18); // where the image starts
  bytes.writeUInt32LE(40, 22); // BITMAPINFOHEADER
  bytes.writeInt32LE(SIZE, 26);
  bytes.writeInt32LE(SIZE * 2, 30); // the colours and the mask, one above the other
  bytes.writeUInt16LE(1, 34);
  bytes.writeUInt16LE(32, 36);
  let at = 62;
  for (let y = SIZE - 1; y >= 0; y--) {
    for (let x = 0; x < SIZE; x++) {
      const [r, g, b, a] = pixel(x, y);
      bytes.set([b, g, r, a], at);
      at += 4;
    }
  }
  return bytes;
}
