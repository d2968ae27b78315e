// The label of a cluster and the disc it needs: counts below 10,000 in full with the page
// visitor's separators (`1,013`), above in its compact form (`12.3K`, `1.23M`), so that a label
// is at most five or six characters, and the disc measured on the label's own text.
import { formatCount } from '../shared/text.js';

/** The font of a cluster's label: map.css draws `.map-cluster` with the same. */
const LABEL_FONT = '600 12px system-ui, sans-serif';

/** Space kept between the label and the disc's edge on each side, in px (border included). */
const LABEL_PADDING = 7;

/** Counts from here on are written in compact form. */
const COMPACT_FROM = 10_000;

/** A cluster's count as its disc shows it. */
export function clusterLabel(count: number): string {
  if (count < COMPACT_FROM) return formatCount(count);
  return new Intl.NumberFormat(undefined, { notation: 'compact', maximumSignificantDigits: 3 }).format(count);
}

let context: CanvasRenderingContext2D | null | undefined;

/** The width of `label` in the labels' font, in px (by its characters when no canvas is there). */
function labelWidth(label: string): number {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return label.length * 8;
  context.font = LABEL_FONT;
  return context.measureText(label).width;
}

/** The smallest diameter of a disc holding `label` with its padding. */
export function labelDiameter(label: string): number {
  return Math.ceil(labelWidth(label)) + 2 * LABEL_PADDING;
}
