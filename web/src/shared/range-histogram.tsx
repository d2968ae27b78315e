// The small histogram above a range facet: one bar per group of the records API's answer, the
// selected bars drawn in the accent colour; a click on a bar selects it, a drag selects the bars
// it crosses. The keyboard's way to the same range is the facet's two inputs.
import { useRef, useState } from 'preact/hooks';
import { formatCount } from './text.js';

/** One bar: its bounds as the range's inputs write them (`to` inclusive) and its records. */
export interface Bar {
  readonly from: string;
  readonly to: string;
  readonly count: number;
  /** What a pointer's tooltip says of the bar ("2001-01-08: 115,245 records"). */
  readonly title: string;
}

interface Props {
  readonly bars: readonly Bar[];
  /** Whether a bar lies inside the range chosen. */
  readonly selected: (bar: Bar) => boolean;
  /** What the histogram shows, for assistive technology ("Records by week: 26 bars, ..."). */
  readonly label: string;
  readonly onSelect: (from: string, to: string) => void;
}

const BAR_WIDTH = 10;
const HEIGHT = 48;

/** The bars drawn over the whole width, their heights relative to the tallest. */
export function RangeHistogram({ bars, selected, label, onSelect }: Props) {
  const svg = useRef<SVGSVGElement>(null);
  const [drag, setDrag] = useState<{ anchor: number; at: number } | null>(null);
  const tallest = Math.max(1, ...bars.map((b) => b.count));
  const indexAt = (clientX: number): number => {
    const box = svg.current!.getBoundingClientRect();
    const share = (clientX - box.left) / Math.max(1, box.width);
    return Math.min(bars.length - 1, Math.max(0, Math.floor(share * bars.length)));
  };
  const dragged = (i: number): boolean =>
    drag !== null && i >= Math.min(drag.anchor, drag.at) && i <= Math.max(drag.anchor, drag.at);
  const finish = (at: number) => {
    if (!drag) return;
    const first = bars[Math.min(drag.anchor, at)];
    const last = bars[Math.max(drag.anchor, at)];
    setDrag(null);
    if (first && last) onSelect(first.from, last.to);
  };
  return (
    <svg
      ref={svg}
      class="histogram"
      viewBox={`0 0 ${bars.length * BAR_WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
      onPointerDown={(event) => {
        svg.current!.setPointerCapture(event.pointerId);
        const i = indexAt(event.clientX);
        setDrag({ anchor: i, at: i });
      }}
      onPointerMove={(event) => drag && setDrag({ ...drag, at: indexAt(event.clientX) })}
      onPointerUp={(event) => finish(indexAt(event.clientX))}
      onPointerCancel={() => setDrag(null)}
    >
      {bars.map((bar, i) => {
        const height = bar.count === 0 ? 0 : Math.max(1.5, (bar.count / tallest) * HEIGHT);
        const on = drag ? dragged(i) : selected(bar);
        return (
          <rect
            key={bar.from}
            class={on ? 'on' : undefined}
            x={i * BAR_WIDTH + 1}
            y={HEIGHT - height}
            width={BAR_WIDTH - 2}
            height={height}
          >
            <title>{`${bar.title}: ${formatCount(bar.count)} records`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
