// Reproducibility: every ratio of a report (HTTP vs DuckDB, peers vs duckportal, facets, 30M vs
// 3M, exports vs COPY) against the same ratio of an earlier report, agreeing within 15%.

/** The parts of a report's JSON that hold ratios; older reports may lack some. */
export interface ReportJson {
  readonly date: string;
  /** `ratio`: httpMs / duckdbMs up to run 20, then the median of the turns' ratios. */
  readonly aggregations?: readonly { name: string; httpMs: number; duckdbMs: number; ratio?: number }[];
  /**
   * Per peer and aggregation: its time, duckportal's timed beside it and the median ratio of the
   * turns (older reports: the two times only, or the peer's time alone).
   */
  readonly peers?: Readonly<
    Record<string, readonly ({ peerMs: number; httpMs: number; ratio?: number } | number | null)[]>
  >;
  /** Facets and scaling: the ratio of the medians up to run 20, then the median of the turns' ratios. */
  /** `baselineSql` from the report of 2026-11-25 on: against equal-output SQL, not `GROUP BY origin`. */
  readonly facets?: readonly {
    name: string;
    httpMs: number;
    groupByMs?: number;
    baselineMs?: number;
    baselineSql?: string;
    ratio?: number;
  }[];
  readonly scaling?: readonly { name: string; smallMs: number; largeMs: number; ratio?: number }[];
  /** `baselineSql` from the report of 2026-11-25 on: ratios against equal-output SQL, not comparable before. */
  readonly exports?: readonly {
    server: string;
    format: string;
    dataset: string;
    ratio: number;
    baselineSql?: string;
  }[];
}

export interface Comparison {
  readonly previousDate: string;
  readonly rows: readonly { name: string; previous: number; current: number; agrees: boolean }[];
}

/** How far two ratios may differ, as the larger over the smaller, to agree. */
export const AGREEMENT = 1.15;

/** Each ratio of a report by a name stable across runs. */
function ratiosOf(report: ReportJson): Map<string, number> {
  const ratios = new Map<string, number>();
  for (const a of report.aggregations ?? []) {
    ratios.set(`${a.name}: HTTP / DuckDB`, a.ratio ?? a.httpMs / a.duckdbMs);
  }
  for (const [peer, times] of Object.entries(report.peers ?? {})) {
    (report.aggregations ?? []).forEach((a, i) => {
      const time = times[i];
      if (typeof time === 'number') ratios.set(`${a.name}: ${peer} / HTTP`, time / a.httpMs);
      else if (time) ratios.set(`${a.name}: ${peer} / HTTP`, time.ratio ?? time.peerMs / time.httpMs);
    });
  }
  for (const f of report.facets ?? []) {
    const baseline = f.baselineSql === undefined ? 'DuckDB' : 'equal-output SQL';
    ratios.set(
      `facets, ${f.name}: HTTP / ${baseline}`,
      f.ratio ?? f.httpMs / (f.baselineMs ?? f.groupByMs ?? NaN),
    );
  }
  for (const s of report.scaling ?? []) ratios.set(`${s.name}: 30M / 3M`, s.ratio ?? s.largeMs / s.smallMs);
  for (const e of report.exports ?? []) {
    const baseline = e.baselineSql === undefined ? 'COPY' : 'equal-output COPY';
    ratios.set(`export ${e.format} of ${e.dataset} (${e.server}): HTTP / ${baseline}`, e.ratio);
  }
  return ratios;
}

/** The ratios both reports have, side by side, each marked as agreeing within 15% or not. */
export function compareRatios(previous: ReportJson, current: ReportJson): Comparison {
  const before = ratiosOf(previous);
  const rows = [...ratiosOf(current)].flatMap(([name, value]) => {
    const old = before.get(name);
    if (old === undefined || !Number.isFinite(old) || !Number.isFinite(value)) return [];
    const agrees = Math.max(old, value) / Math.min(old, value) <= AGREEMENT;
    return [{ name, previous: old, current: value, agrees }];
  });
  return { previousDate: previous.date, rows };
}
