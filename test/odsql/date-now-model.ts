// An independent JS model of now()'s named parameters on a wall-clock reading, for the now() tests to compare with.

/** now()'s named parameters as the builder receives them. */
export type Named = { name: string; value: number }[];

const DAY_US = 86_400_000_000n;
/** now()'s plural weekday names, Monday first. */
export const WEEKDAY_NAMES = [
  'mondays',
  'tuesdays',
  'wednesdays',
  'thursdays',
  'fridays',
  'saturdays',
  'sundays',
];

/** Days since 1970-01-01 of a civil date (any year from 1 on). */
function dayNumber(y: number, m: number, d: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return Math.round(date.getTime() / 86_400_000);
}

const pad = (n: number | bigint, width = 2): string => String(n).padStart(width, '0');
const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));
/** Days of a month; the Gregorian calendar repeats every 400 years, so a year near 2000 stands in. */
const daysIn = (y: number, m: number): number => new Date(Date.UTC(2000 + (y % 400), m, 0)).getUTCDate();

/** A wall-clock time (microseconds since 1970-01-01 00:00 of the wall clock) as 'YYYY-MM-DD HH:MM:SS.ffffff'. */
function wallText(us: bigint): string {
  const days = floorDiv(us, DAY_US);
  const rest = us - days * DAY_US;
  const date = new Date(Number(days) * 86_400_000);
  const [h, m, s, f] = [
    rest / 3_600_000_000n,
    (rest / 60_000_000n) % 60n,
    (rest / 1_000_000n) % 60n,
    rest % 1_000_000n,
  ];
  const ymd = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  return `${ymd} ${pad(h)}:${pad(m)}:${pad(s)}.${pad(f, 6)}`;
}

/**
 * The rules of explore-api.md written independently of the builder, on a wall-clock reading:
 * setters, then years and months (day capped), then exact shifts, then the weekday move.
 */
export function nowModel(wall: string, named: Named): string {
  const [y0, mo0, d0, h0, mi0, s0, f0] = wall.split(/[- :.]/).map(Number);
  const last = (name: string): number | undefined => named.filter((p) => p.name === name).at(-1)?.value;
  const months =
    (last('year') ?? y0!) * 12 +
    (last('month') ?? mo0!) -
    1 +
    (last('years') ?? 0) * 12 +
    (last('months') ?? 0);
  const [y, mo] = [Math.floor(months / 12), (((months % 12) + 12) % 12) + 1];
  const d = Math.min(last('day') ?? d0!, daysIn(y, mo));
  const time = [
    [last('hour') ?? h0!, 3_600_000_000n],
    [last('minute') ?? mi0!, 60_000_000n],
    [last('second') ?? s0!, 1_000_000n],
    [last('microsecond') ?? f0!, 1n],
    [last('days') ?? 0, DAY_US],
    [last('hours') ?? 0, 3_600_000_000n],
    [last('minutes') ?? 0, 60_000_000n],
    [last('seconds') ?? 0, 1_000_000n],
    [last('microseconds') ?? 0, 1n],
  ] as const;
  let us = time.reduce(
    (sum, [value, unit]) => sum + BigInt(value) * unit,
    BigInt(dayNumber(y, mo, d)) * DAY_US,
  );
  const move = named.filter((p) => p.name === 'weekday' || WEEKDAY_NAMES.includes(p.name)).at(-1);
  const [target, nth] =
    move === undefined
      ? [0, 0]
      : move.name === 'weekday'
        ? [move.value, 1]
        : [WEEKDAY_NAMES.indexOf(move.name), move.value];
  if (nth !== 0) {
    const today = Number((((floorDiv(us, DAY_US) + 3n) % 7n) + 7n) % 7n); // 1970-01-01 was a Thursday (3)
    const jump =
      nth > 0 ? (nth - 1) * 7 + ((7 - today + target) % 7) : -((-nth - 1) * 7 + ((today - target + 7) % 7));
    us += BigInt(jump) * DAY_US;
  }
  return wallText(us);
}
