// Figures and the tables they are written in.

export function median(values: readonly number[]): number {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** The q-quantile (0..1) of a list of numbers, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
}

export const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

/** A target's figures over alternating rounds (wrk.ts's compare): medians, and each round's req/s. */
export interface Rate {
  rps: number;
  p50: number;
  p99: number;
  rounds: readonly number[];
}

export function row(label: string, value: Rate, baseline: Rate): string {
  const f = fmt;
  return `| ${label} | ${f(value.rps)} | ${f(value.p50, 2)} | ${f(value.p99, 2)} | ${f(baseline.rps)} | ${f(baseline.p50, 2)} | ${f(baseline.p99, 2)} | ${fmtRatio(ratio(value, baseline))} | ${f(value.p99 / baseline.p99, 2)} |`;
}

export const TABLE_HEAD = [
  '| case | req/s | p50 ms | p99 ms | baseline req/s | baseline p50 | baseline p99 | throughput ratio (rounds) | p99 ratio |',
  '|---|---|---|---|---|---|---|---|---|',
].join('\n');

/** A markdown table from a header row and rows of cells. */
export function table(head: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

export function stamp(): string {
  return `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}`;
}

/** A throughput ratio (of the medians) and its run-to-run noise: the lowest and highest ratio of one round's pair. */
export interface Ratio {
  value: number;
  min: number;
  max: number;
}

/** `a` against `b` (each with the rps of its rounds, measured in alternation): the ratio and its spread. */
export function ratio(a: { rps: number; rounds: readonly number[] }, b: { rps: number; rounds: readonly number[] }): Ratio {
  const pairs = a.rounds.map((x, i) => x / (b.rounds[i] ?? NaN)).filter(Number.isFinite);
  if (pairs.length === 0) return { value: NaN, min: NaN, max: NaN };
  return { value: a.rps / b.rps, min: Math.min(...pairs), max: Math.max(...pairs) };
}

/** "0.64 (0.58–0.70)": the ratio, then its rounds' range. */
export const fmtRatio = (r: Ratio) => `${fmt(r.value, 2)} (${fmt(r.min, 2)}–${fmt(r.max, 2)})`;

/**
 * A target ("at least" `floor`) judged against the noise: met when every round's ratio reaches it,
 * not met when none does, within noise when the rounds fall on both sides.
 */
export function verdict(r: Ratio, floor: number): 'met' | 'not met' | 'within noise' | 'not measured' {
  // No round with an answer on both sides (wrk saw none finish, say): nothing to judge.
  if (!Number.isFinite(r.value) || !Number.isFinite(r.min)) return 'not measured';
  if (r.min >= floor) return 'met';
  if (r.max < floor) return 'not met';
  return 'within noise';
}
