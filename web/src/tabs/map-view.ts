// The map's view in the URL as the public service's map pages write it, `location=<zoom>,<lat>,<lon>`:
// read when the page opens (and on Back), rewritten in place after each move (replaceState: a pan
// is not a history entry), and carried by the tab links so that coming back shows the same view.
import { carryUrlState } from '../shared/use-url-state.js';

/** A map view: its zoom level and its centre. */
export interface View {
  readonly zoom: number;
  readonly lat: number;
  readonly lon: number;
}

/** The map's zoom levels (map-layers.ts creates the map with them). */
export const ZOOMS = { min: 1, max: 18 } as const;

const PARAM = 'location';

/** The view of a URL query string, or null when it has none or one that is not three numbers. */
export function readView(search: string): View | null {
  const value = new URLSearchParams(search).get(PARAM);
  const parts = value?.split(',').map((part) => (part.trim() === '' ? NaN : Number(part)));
  if (parts?.length !== 3 || !parts.every(Number.isFinite)) return null;
  const [zoom, lat, lon] = parts as [number, number, number];
  return {
    zoom: Math.min(ZOOMS.max, Math.max(ZOOMS.min, Math.round(zoom))),
    lat: Math.min(90, Math.max(-90, lat)),
    // Any longitude names a place: one past ±180 is the same place a turn of the world away.
    lon: ((((lon + 180) % 360) + 360) % 360) - 180,
  };
}

/**
 * The `location` value of a view: the centre to a tenth of a pixel at its zoom (a 256 px world
 * 2^zoom times over), so a link restores the view exactly without a long tail of digits.
 */
export function viewParam(view: View): string {
  const decimals = Math.max(0, Math.ceil(Math.log10((256 * 2 ** view.zoom) / 360)) + 1);
  const round = (value: number) => String(Number(value.toFixed(decimals)));
  return `${view.zoom},${round(view.lat)},${round(view.lon)}`;
}

/** Rewrites the current URL's `location` (no new history entry) and the tab links that carry it. */
export function writeView(view: View): void {
  const params = new URLSearchParams(location.search);
  params.delete(PARAM);
  // Commas as the public service writes them: URLSearchParams would escape them.
  const search = [params.toString(), `${PARAM}=${viewParam(view)}`].filter(Boolean).join('&');
  history.replaceState(history.state, '', `${location.pathname}?${search}${location.hash}`);
  carryUrlState();
}
