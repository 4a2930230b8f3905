/**
 * Reads the Prometheus text format (version 0.0.4, what prom-client writes for /metrics) into
 * metric families, and the few sums and quantiles the status page draws from them. Lenient: a
 * line it cannot read is skipped, so that one odd series never blanks an operator's page.
 */

interface Sample {
  /** The series name as written (`x_bucket`, `x_sum`, `x_count` for a histogram `x`). */
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
}

export interface MetricFamily {
  name: string;
  /** counter, gauge, histogram, summary or untyped. */
  type: string;
  help: string;
  samples: Sample[];
}

/** Series that belong to the family they follow, by suffix (histograms and summaries). */
const SUFFIXES = ['_bucket', '_sum', '_count', '_created', '_total'];

export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const family = (name: string): MetricFamily => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, type: 'untyped', help: '', samples: [] }));
    return f;
  };
  let current: MetricFamily | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^#\s+(HELP|TYPE)\s+([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\s+(.*))?$/.exec(line);
      if (!m) continue;
      current = family(m[2]!);
      if (m[1] === 'TYPE') current.type = m[3]?.trim() ?? 'untyped';
      else current.help = unescapeHelp(m[3] ?? '');
      continue;
    }
    const sample = parseSample(line);
    if (!sample) continue;
    const owner =
      current && (sample.name === current.name || SUFFIXES.some((s) => sample.name === current!.name + s)) ? current : family(sample.name);
    owner.samples.push(sample);
  }
  return families;
}

function unescapeHelp(text: string): string {
  return text.replace(/\\(\\|n)/g, (_m, c: string) => (c === 'n' ? '\n' : '\\'));
}

function parseSample(line: string): Sample | undefined {
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
  if (!name) return undefined;
  let i = name.length;
  const labels: Record<string, string> = {};
  if (line[i] === '{') {
    i++;
    for (;;) {
      while (line[i] === ' ' || line[i] === ',') i++;
      if (line[i] === '}') {
        i++;
        break;
      }
      const labelName = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(line.slice(i))?.[0];
      if (!labelName || line[i + labelName.length] !== '=' || line[i + labelName.length + 1] !== '"') return undefined;
      i += labelName.length + 2;
      let value = '';
      for (;;) {
        const c = line[i++];
        if (c === undefined) return undefined;
        if (c === '"') break;
        if (c === '\\') {
          const next = line[i++];
          value += next === 'n' ? '\n' : (next ?? '');
        } else value += c;
      }
      labels[labelName] = value;
    }
  }
  // The value, then an optional timestamp.
  const value = parseValue(line.slice(i).trim().split(/\s+/)[0] ?? '');
  return value === undefined ? undefined : { name, labels, value };
}

function parseValue(text: string): number | undefined {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  const value = Number(text);
  return text === '' || Number.isNaN(value) ? undefined : value;
}

type LabelFilter = (labels: Readonly<Record<string, string>>) => boolean;

/** The family's samples named `series` (default: the family's own name) that pass `filter`. */
function samplesOf(families: Map<string, MetricFamily>, family: string, series = family, filter?: LabelFilter): Sample[] {
  return (families.get(family)?.samples ?? []).filter((s) => s.name === series && (!filter || filter(s.labels)));
}

/** Whether the family has at least one sample (a counter never incremented has none). */
export function hasSamples(families: Map<string, MetricFamily>, family: string): boolean {
  return (families.get(family)?.samples.length ?? 0) > 0;
}

/** The sum of a family's samples, or undefined when it has none. */
export function total(families: Map<string, MetricFamily>, family: string, filter?: LabelFilter): number | undefined {
  const samples = samplesOf(families, family, family, filter);
  return samples.length === 0 ? undefined : samples.reduce((a, s) => a + s.value, 0);
}

/** The sum of a family's samples by the value of one label. */
export function sumBy(families: Map<string, MetricFamily>, family: string, label: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const s of samplesOf(families, family)) {
    const key = s.labels[label] ?? '';
    sums.set(key, (sums.get(key) ?? 0) + s.value);
  }
  return sums;
}

export interface Bucket {
  /** Upper bound (Infinity for +Inf). */
  le: number;
  /** Observations at or below `le` (cumulative, as written). */
  count: number;
}

/** A histogram's cumulative buckets summed over all its other labels, in order of `le`. */
export function histogramBuckets(families: Map<string, MetricFamily>, family: string): Bucket[] {
  const byLe = new Map<number, number>();
  for (const s of samplesOf(families, family, `${family}_bucket`)) {
    const le = parseValue(s.labels.le ?? '');
    if (le === undefined || Number.isNaN(le)) continue;
    byLe.set(le, (byLe.get(le) ?? 0) + s.value);
  }
  return [...byLe].map(([le, count]) => ({ le, count })).sort((a, b) => a.le - b.le);
}

/**
 * The q-quantile of cumulative buckets, interpolated within its bucket as PromQL's
 * histogram_quantile() does; undefined without observations. In the +Inf bucket it is the
 * largest finite bound (all that is known).
 */
export function histogramQuantile(q: number, buckets: readonly Bucket[]): number | undefined {
  const last = buckets.at(-1);
  if (!last || last.le !== Infinity || last.count === 0) return undefined;
  const rank = q * last.count;
  let previous: Bucket = { le: 0, count: 0 };
  for (const bucket of buckets) {
    if (bucket.count >= rank) {
      if (bucket.le === Infinity) return previous.le;
      // The first bucket's lower bound is 0 (durations are never negative).
      const inBucket = bucket.count - previous.count;
      return inBucket === 0 ? bucket.le : previous.le + (bucket.le - previous.le) * ((rank - previous.count) / inBucket);
    }
    previous = bucket;
  }
  return previous.le;
}
