/**
 * Series as prom-client reports them (with workers, aggregated over all of them), and what the
 * status page computes of them.
 */

/** A sample as prom-client's JSON has it (a histogram's carry their series' name). */
export type Sample = { value: number; labels: Record<string, string | number>; metricName?: string };

/**
 * The q-quantile of a histogram's samples summed over its other labels, as PromQL's
 * `histogram_quantile(q, sum by (le) (…_bucket))` computes it: linear within the bucket the rank
 * falls in, the highest finite bound when it falls in +Inf. Undefined with no observations.
 */
export function histogramQuantile(q: number, histogram: readonly Sample[]): number | undefined {
  const cumulative = new Map<number, number>();
  for (const s of histogram) {
    if (s.metricName?.endsWith('_bucket') !== true) continue;
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    cumulative.set(le, (cumulative.get(le) ?? 0) + s.value);
  }
  const buckets = [...cumulative].sort((a, b) => a[0] - b[0]);
  const observed = buckets.at(-1)?.[1] ?? 0;
  if (observed === 0) return undefined;
  const rank = q * observed;
  const i = buckets.findIndex(([, n]) => n >= rank);
  const [le, n] = buckets[i]!;
  const [lower, below] = buckets[i - 1] ?? [0, 0];
  return le === Infinity ? lower : lower + ((le - lower) * (rank - below)) / (n - below);
}
