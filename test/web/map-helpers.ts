// What the map tab's browser tests share: reading the count it drew, the view its URL holds, and
// where a place is on the screen for that view (web mercator, as leaflet draws it).
import type { Page } from 'puppeteer-core';

/** The v2.1 records path of a dataset. */
export const records = (id: string) => `/api/explore/v2.1/catalog/datasets/${id}/records`;

/**
 * The count the map tab shows once it has drawn, read in the same step as the wait: the panel may
 * draw again (and replace its output) between a wait and a later read.
 */
export async function drawnTotal(page: Page): Promise<number> {
  const shown = await page.waitForFunction(() => {
    const output = document.querySelector('.map-panel[aria-busy=false] .total output');
    return output && /\d/.test(output.textContent ?? '') ? output.textContent : null;
  });
  return Number(String(await shown.jsonValue()).replace(/\D/g, ''));
}

/** A map view: zoom and centre. */
export interface View {
  readonly zoom: number;
  readonly lat: number;
  readonly lon: number;
}

/** The `location` parameter of the page's URL, as text ('' when none). */
export function mapLocation(page: Page): string {
  return new URL(page.url()).searchParams.get('location') ?? '';
}

/** The view a `location` value names. */
export function viewOf(location: string): View {
  const [zoom, lat, lon] = location.split(',').map(Number) as [number, number, number];
  return { zoom, lat, lon };
}

/** Web-mercator pixel coordinates of a place in a world 256 * 2^zoom px wide. */
function worldPixel(lat: number, lon: number, zoom: number): { x: number; y: number } {
  const size = 256 * 2 ** zoom;
  const phi = (lat * Math.PI) / 180;
  return {
    x: ((lon + 180) / 360) * size,
    y: ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * size,
  };
}

/** Where a place is drawn on the page, for a map element at `box` showing `view`. */
export function screenPoint(
  place: { lat: number; lon: number },
  view: View,
  box: { x: number; y: number; width: number; height: number },
): { x: number; y: number } {
  const at = worldPixel(place.lat, place.lon, view.zoom);
  const center = worldPixel(view.lat, view.lon, view.zoom);
  return { x: box.x + box.width / 2 + at.x - center.x, y: box.y + box.height / 2 + at.y - center.y };
}

/** The edges (degrees) of what a map `size` px large shows of `view`. */
export function viewEdges(view: View, size: { width: number; height: number }) {
  const world = 256 * 2 ** view.zoom;
  const center = worldPixel(view.lat, view.lon, view.zoom);
  const latAt = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / world))) * 180) / Math.PI;
  const lonAt = (x: number) => (x / world) * 360 - 180;
  return {
    south: latAt(center.y + size.height / 2),
    west: lonAt(center.x - size.width / 2),
    north: latAt(center.y - size.height / 2),
    east: lonAt(center.x + size.width / 2),
  };
}
