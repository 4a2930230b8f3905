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

export interface Rate {
  rps: number;
  p50: number;
  p99: number;
}

export function row(label: string, value: Rate, baseline: Rate): string {
  const f = fmt;
  return `| ${label} | ${f(value.rps)} | ${f(value.p50, 2)} | ${f(value.p99, 2)} | ${f(baseline.rps)} | ${f(baseline.p50, 2)} | ${f(baseline.p99, 2)} | ${f(value.rps / baseline.rps, 2)} | ${f(value.p99 / baseline.p99, 2)} |`;
}

export const TABLE_HEAD = [
  '| case | req/s | p50 ms | p99 ms | baseline req/s | baseline p50 | baseline p99 | throughput ratio | p99 ratio |',
  '|---|---|---|---|---|---|---|---|---|',
].join('\n');

/** A markdown table from a header row and rows of cells. */
export function table(head: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

export function stamp(): string {
  return `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}`;
}
