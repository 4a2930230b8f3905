/**
 * The operators' status page: the state of the service at a glance, drawn from its /metrics text
 * (with workers, the text aggregated over all of them), and the recent warnings and errors.
 * One self-contained HTML document: inline styles and SVG, no script and nothing fetched, so it
 * passes the site's Content-Security-Policy and works through any proxy. Every text it prints
 * is escaped: label values and log lines can carry whatever a client sent.
 */
import { escapeHtml } from '../../shared/escape-json.js';
import {
  hasSamples,
  histogramBuckets,
  histogramQuantile,
  parsePrometheusText,
  sumBy,
  total,
  type Bucket,
  type MetricFamily,
} from './prometheus-text.js';
import type { RecentError } from './recent-errors.js';

export interface StatusPageInput {
  metricsText: string;
  recentErrors: readonly RecentError[];
  now: Date;
  /** Which process drew the page (pid, host), shown in its header. */
  process: string;
}

/** Proxy cache results in the order drawn; not_modified is apart: it is a refresh's outcome, counted beside the answer's own result. */
const PROXY_RESULTS = ['hit', 'shared', 'refresh', 'miss', 'stale'] as const;
const UPSTREAM_ERROR_KINDS = ['unreachable', 'timeout', 'status', 'too_large', 'invalid', 'circuit_open'];

const COLOR = {
  ok: '#1a7f37',
  bad: '#cf222e',
  warn: '#9a6700',
  muted: '#57606a',
  text: '#1f2328',
  panel: '#f6f8fa',
  line: '#d0d7de',
  accent: '#0969da',
} as const;
const RESULT_COLOR: Record<(typeof PROXY_RESULTS)[number], string> = {
  hit: '#1a7f37',
  shared: '#4ac26b',
  refresh: '#0969da',
  miss: '#d4a72c',
  stale: '#e16f24',
};

/** What the page shows, read from the metrics. */
interface Snapshot {
  ready: boolean | undefined;
  breakerOpen: boolean | undefined;
  redis: 'up' | 'down' | 'not configured';
  workers: number | undefined;
  requests: number;
  requests5xx: number;
  proxy: { byResult: Map<string, number>; answers: number; hitRatio: number | undefined; notModified: number };
  proxyEntries: number | undefined;
  proxyBytes: number | undefined;
  page: { hit: number; miss: number; hitRatio: number | undefined };
  pageEntries: number | undefined;
  upstream: { buckets: Bucket[]; calls: number; p50: number | undefined; p99: number | undefined };
  upstreamErrors: Map<string, number>;
  inFlight: number | undefined;
  queued: number | undefined;
  rateLimited: Map<string, number>;
  shed: Map<string, number>;
  connectionsClosed: Map<string, number>;
  residentBytes: number | undefined;
  heapUsedBytes: number | undefined;
  lagP99: number | undefined;
  startedAt: number | undefined;
}

function readSnapshot(families: Map<string, MetricFamily>): Snapshot {
  const gauge = (name: string) => total(families, name);
  const flag = (name: string) => {
    const v = gauge(name);
    return v === undefined ? undefined : v > 0;
  };
  const byResult = sumBy(families, 'proxy_cache_events_total', 'result');
  const answers = [...byResult].filter(([r]) => r !== 'not_modified').reduce((a, [, n]) => a + n, 0);
  const hits = (byResult.get('hit') ?? 0) + (byResult.get('shared') ?? 0);
  const pageResults = sumBy(families, 'page_cache_events_total', 'result');
  const pageHit = pageResults.get('hit') ?? 0;
  const pageMiss = pageResults.get('miss') ?? 0;
  const buckets = histogramBuckets(families, 'upstream_request_duration_seconds');
  const redisUp = gauge('redis_up');
  return {
    ready: flag('service_ready'),
    breakerOpen: flag('upstream_circuit_open'),
    redis: !hasSamples(families, 'redis_up') || redisUp === undefined ? 'not configured' : redisUp > 0 ? 'up' : 'down',
    workers: gauge('service_workers'),
    requests: total(families, 'http_requests_total') ?? 0,
    requests5xx: total(families, 'http_requests_total', (l) => (l.status ?? '').startsWith('5')) ?? 0,
    proxy: { byResult, answers, hitRatio: answers > 0 ? hits / answers : undefined, notModified: byResult.get('not_modified') ?? 0 },
    proxyEntries: gauge('proxy_cache_entries'),
    proxyBytes: gauge('proxy_cache_bytes'),
    page: { hit: pageHit, miss: pageMiss, hitRatio: pageHit + pageMiss > 0 ? pageHit / (pageHit + pageMiss) : undefined },
    pageEntries: gauge('page_cache_entries'),
    upstream: {
      buckets,
      calls: buckets.at(-1)?.count ?? 0,
      p50: histogramQuantile(0.5, buckets),
      p99: histogramQuantile(0.99, buckets),
    },
    upstreamErrors: withKnown(sumBy(families, 'upstream_errors_total', 'kind'), UPSTREAM_ERROR_KINDS),
    inFlight: gauge('upstream_in_flight'),
    queued: gauge('upstream_queued'),
    rateLimited: withKnown(sumBy(families, 'rate_limited_total', 'kind'), ['api', 'page']),
    shed: withKnown(sumBy(families, 'load_shed_total', 'reason'), ['event_loop', 'upstream_queue']),
    connectionsClosed: withKnown(sumBy(families, 'connections_closed_total', 'reason'), ['stalled', 'per_client', 'total']),
    residentBytes: gauge('process_resident_memory_bytes'),
    heapUsedBytes: gauge('nodejs_heap_size_used_bytes'),
    // With workers the aggregated lag is their mean; the worst of them is not in the text.
    lagP99: gauge('nodejs_eventloop_lag_p99_seconds'),
    startedAt: families.get('process_start_time_seconds')?.samples[0]?.value,
  };
}

/** The known label values first (zero when never counted), then any others found. */
function withKnown(found: Map<string, number>, known: readonly string[]): Map<string, number> {
  const all = new Map(known.map((k) => [k, found.get(k) ?? 0]));
  for (const [k, n] of found) if (!all.has(k)) all.set(k, n);
  return all;
}

export function renderStatusPage(input: StatusPageInput): string {
  const s = readSnapshot(parsePrometheusText(input.metricsText));
  // The picture in words, for screen readers (and for a quick read of the source).
  const nonZero = (values: Map<string, number>) =>
    [...values]
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${k} ${count(n)}`)
      .join(', ');
  const summary = [
    `ready: ${yesNo(s.ready)}`,
    `circuit breaker: ${s.breakerOpen === undefined ? 'unknown' : s.breakerOpen ? 'open' : 'closed'}`,
    `Redis: ${s.redis}`,
    `workers: ${s.workers === undefined ? 'unknown' : count(s.workers)}`,
    `requests: ${count(s.requests)} (5xx: ${count(s.requests5xx)})`,
    `proxy cache hit ratio: ${percent(s.proxy.hitRatio)} (${PROXY_RESULTS.map((r) => `${r} ${count(s.proxy.byResult.get(r) ?? 0)}`).join(', ')})`,
    `page cache hit ratio: ${percent(s.page.hitRatio)} (hit ${count(s.page.hit)}, miss ${count(s.page.miss)})`,
    `content API latency: p50 ${duration(s.upstream.p50)}, p99 ${duration(s.upstream.p99)} over ${plural(s.upstream.calls, 'call')}`,
    `content API errors: ${count(sumOf(s.upstreamErrors))}${sumOf(s.upstreamErrors) > 0 ? ` (${nonZero(s.upstreamErrors)})` : ''}`,
    `rate limited: ${count(sumOf(s.rateLimited))}`,
    `shed: ${count(sumOf(s.shed))}`,
    `connections closed: ${count(sumOf(s.connectionsClosed))}`,
  ].join('; ');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">',
    `<title>Status · ${escapeHtml(input.process)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    '<header><h1>Service status</h1>',
    `<p>${escapeHtml(input.process)} · drawn ${escapeHtml(dateTime(input.now))} UTC`,
    s.startedAt === undefined ? '' : ` · up ${escapeHtml(age(input.now.getTime() / 1000 - s.startedAt))}`,
    ' · counts are since the process started (with workers, summed over them)</p></header>',
    '<main><section aria-labelledby="glance"><h2 id="glance">At a glance</h2>',
    glance(s, summary),
    '</section><section aria-labelledby="recent"><h2 id="recent">Recent warnings and errors</h2>',
    errorsTable(input.recentErrors, input.now),
    '</section></main></body></html>',
  ].join('');
}

const STYLE = [
  ':root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",sans-serif;color:#1f2328;background:#fff}',
  'body{margin:0 auto;max-width:1232px;padding:16px}',
  'header h1{font-size:20px;margin:0 0 4px}header p{margin:0;color:#57606a;font-size:13px}',
  'h2{font-size:15px;margin:18px 0 8px}',
  'svg{display:block;width:100%;height:auto}',
  'table{border-collapse:collapse;width:100%;font-size:13px}',
  'th,td{border-bottom:1px solid #d0d7de;padding:5px 8px;text-align:left;vertical-align:top}',
  'th{background:#f6f8fa;font-weight:600}',
  'td.time{white-space:nowrap;color:#57606a}td.msg{font-weight:600}',
  'code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Noto Sans Mono CJK SC",monospace;font-size:12px;overflow-wrap:anywhere}',
  '.level{display:inline-block;border-radius:10px;padding:0 8px;color:#fff;font-size:12px}',
  '.warn{background:#9a6700}.error,.fatal{background:#cf222e}',
  'p.none{color:#57606a}',
].join('');

// The picture: one SVG, 1200 wide, drawn in panels.

const W = 1200;
const GAP = 12;

function glance(s: Snapshot, summary: string): string {
  const rows: string[] = [];
  let y = 0;

  // Row 1: tiles, one word each.
  const tiles: [string, string, string, string][] = [
    [
      'Ready',
      yesNo(s.ready, 'ready', 'not ready'),
      s.ready === undefined ? COLOR.muted : s.ready ? COLOR.ok : COLOR.bad,
      'what /readyz says',
    ],
    [
      'Circuit breaker',
      s.breakerOpen === undefined ? 'unknown' : s.breakerOpen ? 'open' : 'closed',
      s.breakerOpen === undefined ? COLOR.muted : s.breakerOpen ? COLOR.bad : COLOR.ok,
      s.breakerOpen ? 'content API calls held back' : 'content API calls go through',
    ],
    ['Redis', s.redis, s.redis === 'up' ? COLOR.ok : s.redis === 'down' ? COLOR.bad : COLOR.muted, 'the shared cache tier'],
    ['Workers', s.workers === undefined ? 'unknown' : count(s.workers), COLOR.text, 'processes serving'],
    [
      'Requests',
      count(s.requests),
      COLOR.text,
      `5xx: ${count(s.requests5xx)} (${percent(s.requests > 0 ? s.requests5xx / s.requests : undefined)})`,
    ],
    [
      'Content API now',
      `${s.inFlight === undefined ? '?' : count(s.inFlight)} in flight`,
      COLOR.text,
      `${s.queued === undefined ? '?' : count(s.queued)} queued`,
    ],
  ];
  const tileW = (W - GAP * (tiles.length - 1)) / tiles.length;
  tiles.forEach(([label, value, color, sub], i) => {
    const x = i * (tileW + GAP);
    rows.push(
      panel(x, y, tileW, 84),
      text(x + 14, y + 22, label, { size: 12, fill: COLOR.muted }),
      // A long word ("not configured") a size down, to stay inside its tile.
      text(x + 14, y + 52, value, { size: value.length > 11 ? 18 : 22, weight: 700, fill: color }),
      text(x + 14, y + 72, sub, { size: 11, fill: COLOR.muted }),
    );
  });
  y += 84 + GAP;

  // Row 2: the caches.
  const wide = 790;
  const narrow = W - wide - GAP;
  rows.push(proxyCachePanel(s, 0, y, wide, 150), pageCachePanel(s, wide + GAP, y, narrow, 150));
  y += 150 + GAP;

  // Row 3: the content API.
  const half = (W - GAP) / 2;
  rows.push(latencyPanel(s, 0, y, half, 196), upstreamErrorsPanel(s, half + GAP, y, half, 196));
  y += 196 + GAP;

  // Row 4: protection and the process.
  rows.push(protectionPanel(s, 0, y, wide, 124), processPanel(s, wide + GAP, y, narrow, 124));
  y += 124;

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${y}" width="${W}" height="${y}" role="img" aria-labelledby="glance-title glance-desc"`,
    " font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif\">",
    '<title id="glance-title">State at a glance</title>',
    `<desc id="glance-desc">${escapeHtml(summary)}</desc>`,
    ...rows,
    '</svg>',
  ].join('');
}

function proxyCachePanel(s: Snapshot, x: number, y: number, w: number, h: number): string {
  const out = [panel(x, y, w, h), title(x, y, 'Proxy cache: content API answers by result')];
  out.push(
    text(x + 14, y + 64, percent(s.proxy.hitRatio), { size: 28, weight: 700, fill: ratioColor(s.proxy.hitRatio) }),
    text(x + 14, y + 82, 'hit ratio (hit + shared)', { size: 11, fill: COLOR.muted }),
  );
  const barX = x + 190;
  const barW = w - 190 - 14;
  out.push(
    ...stackedBar(
      barX,
      y + 44,
      barW,
      22,
      PROXY_RESULTS.map((r) => [r, s.proxy.byResult.get(r) ?? 0, RESULT_COLOR[r]]),
    ),
  );
  // The legend: each result with its count and share.
  PROXY_RESULTS.forEach((r, i) => {
    const n = s.proxy.byResult.get(r) ?? 0;
    const lx = barX + (i % 3) * (barW / 3);
    const ly = y + 92 + Math.floor(i / 3) * 22;
    out.push(
      `<rect x="${lx}" y="${ly - 10}" width="11" height="11" rx="2" fill="${RESULT_COLOR[r]}"/>`,
      text(lx + 17, ly, `${r} ${count(n)} (${percent(s.proxy.answers > 0 ? n / s.proxy.answers : undefined)})`, { size: 12 }),
    );
  });
  out.push(
    text(
      x + 14,
      y + h - 14,
      `${plural(s.proxy.answers, 'answer')} · ${plural(s.proxy.notModified, 'refresh', 'refreshes')} answered 304 · ` +
        `${s.proxyEntries === undefined ? '? entries' : plural(s.proxyEntries, 'entry', 'entries')}, ${bytes(s.proxyBytes)}`,
      { size: 12, fill: COLOR.muted },
    ),
  );
  return out.join('');
}

function pageCachePanel(s: Snapshot, x: number, y: number, w: number, h: number): string {
  const out = [panel(x, y, w, h), title(x, y, 'Page cache: rendered pages')];
  out.push(
    text(x + 14, y + 64, percent(s.page.hitRatio), { size: 28, weight: 700, fill: ratioColor(s.page.hitRatio) }),
    text(x + 14, y + 82, 'hit ratio', { size: 11, fill: COLOR.muted }),
    ...stackedBar(x + 150, y + 44, w - 164, 22, [
      ['hit', s.page.hit, COLOR.ok],
      ['miss', s.page.miss, RESULT_COLOR.miss],
    ]),
  );
  [
    ['hit', s.page.hit, COLOR.ok],
    ['miss', s.page.miss, RESULT_COLOR.miss],
  ].forEach(([label, n, color], i) => {
    const lx = x + 150 + i * 110;
    out.push(
      `<rect x="${lx}" y="${y + 82}" width="11" height="11" rx="2" fill="${color as string}"/>`,
      text(lx + 17, y + 92, `${label as string} ${count(n as number)}`, { size: 12 }),
    );
  });
  out.push(
    text(x + 14, y + h - 14, `${s.pageEntries === undefined ? '? pages' : plural(s.pageEntries, 'page')} cached`, {
      size: 12,
      fill: COLOR.muted,
    }),
  );
  return out.join('');
}

function latencyPanel(s: Snapshot, x: number, y: number, w: number, h: number): string {
  const { buckets, calls, p50, p99 } = s.upstream;
  const out = [panel(x, y, w, h), title(x, y, 'Content API latency (answered calls)')];
  out.push(
    text(x + 14, y + 50, `p50 ${duration(p50)}`, { size: 18, weight: 700, fill: COLOR.accent }),
    text(x + 150, y + 50, `p99 ${duration(p99)}`, { size: 18, weight: 700, fill: p99 !== undefined && p99 > 1 ? COLOR.bad : COLOR.text }),
    text(x + w - 14, y + 50, plural(calls, 'call'), { size: 12, fill: COLOR.muted, anchor: 'end' }),
  );
  if (calls === 0) {
    out.push(text(x + w / 2, y + 125, 'no calls yet', { size: 13, fill: COLOR.muted, anchor: 'middle' }));
    return out.join('');
  }
  // One bar per bucket (observations in it, not cumulative), with the quantiles marked.
  const chartX = x + 14;
  const chartW = w - 28;
  const base = y + h - 42;
  const top = y + 72;
  const slot = chartW / buckets.length;
  const inBucket = buckets.map((b, i) => b.count - (buckets[i - 1]?.count ?? 0));
  const most = Math.max(...inBucket, 1);
  buckets.forEach((b, i) => {
    const n = inBucket[i]!;
    const barH = n === 0 ? 0 : Math.max(2, ((base - top) * n) / most);
    out.push(
      `<rect x="${(chartX + i * slot + 3).toFixed(1)}" y="${(base - barH).toFixed(1)}" width="${(slot - 6).toFixed(1)}" height="${barH.toFixed(1)}" fill="#8cb4e6"/>`,
      text(chartX + i * slot + slot / 2, base + 14, b.le === Infinity ? '+Inf' : duration(b.le, true), {
        size: 10,
        fill: COLOR.muted,
        anchor: 'middle',
      }),
    );
  });
  out.push(
    `<line x1="${chartX}" y1="${base}" x2="${chartX + chartW}" y2="${base}" stroke="${COLOR.line}"/>`,
    text(chartX, base + 29, 'calls per bucket, by its upper bound', { size: 10, fill: COLOR.muted }),
  );
  // p50 labelled on the left of its line and p99 on the right, so that close quantiles stay readable.
  for (const [label, value, color, side] of [
    ['p50', p50, COLOR.accent, -1],
    ['p99', p99, COLOR.bad, 1],
  ] as const) {
    if (value === undefined) continue;
    const mx = chartX + markerSlot(buckets, value) * slot;
    out.push(
      `<line x1="${mx.toFixed(1)}" y1="${top - 14}" x2="${mx.toFixed(1)}" y2="${base}" stroke="${color}" stroke-width="2" stroke-dasharray="4 3"/>`,
      text(mx + side * 4, top - 6, label, { size: 11, weight: 700, fill: color, anchor: side < 0 ? 'end' : 'start' }),
    );
  }
  return out.join('');
}

/** Where a value falls on the bar chart, in slots: its bucket's index plus its place within it. */
function markerSlot(buckets: readonly Bucket[], value: number): number {
  for (let i = 0; i < buckets.length; i++) {
    const upper = buckets[i]!.le;
    if (value <= upper) {
      const lower = buckets[i - 1]?.le ?? 0;
      return i + (upper === Infinity || upper === lower ? 0.5 : (value - lower) / (upper - lower));
    }
  }
  return buckets.length;
}

function upstreamErrorsPanel(s: Snapshot, x: number, y: number, w: number, h: number): string {
  const errors = sumOf(s.upstreamErrors);
  const attempts = s.upstream.calls + errors - (s.upstreamErrors.get('circuit_open') ?? 0);
  const out = [panel(x, y, w, h), title(x, y, 'Content API errors by kind')];
  out.push(
    text(x + 14, y + 50, plural(errors, 'error'), { size: 18, weight: 700, fill: errors > 0 ? COLOR.bad : COLOR.ok }),
    text(
      x + w - 14,
      y + 50,
      `${percent(attempts > 0 ? (errors - (s.upstreamErrors.get('circuit_open') ?? 0)) / attempts : undefined)} of calls made failed`,
      { size: 12, fill: COLOR.muted, anchor: 'end' },
    ),
    ...hbars(x + 14, y + 66, w - 28, [...s.upstreamErrors], COLOR.bad, 20),
  );
  return out.join('');
}

function protectionPanel(s: Snapshot, x: number, y: number, w: number, h: number): string {
  const out = [panel(x, y, w, h), title(x, y, 'Protection: requests refused and connections closed')];
  const groups: [string, Map<string, number>][] = [
    ['Rate limited (429)', s.rateLimited],
    ['Shed to keep answering (503)', s.shed],
    ['Connections closed', s.connectionsClosed],
  ];
  const colW = (w - 28) / groups.length;
  groups.forEach(([label, values], i) => {
    const gx = x + 14 + i * colW;
    out.push(text(gx, y + 48, label, { size: 12, weight: 600 }), ...hbars(gx, y + 58, colW - 16, [...values], COLOR.warn, 20, 112));
  });
  return out.join('');
}

function processPanel(s: Snapshot, x: number, y: number, w: number, h: number): string {
  const lagBad = s.lagP99 !== undefined && s.lagP99 > 0.1;
  const out = [panel(x, y, w, h), title(x, y, 'Process')];
  const lines: [string, string, string][] = [
    ['resident memory', bytes(s.residentBytes), COLOR.text],
    ['JavaScript heap used', bytes(s.heapUsedBytes), COLOR.text],
    ['event-loop lag p99', duration(s.lagP99), lagBad ? COLOR.bad : COLOR.text],
  ];
  lines.forEach(([label, value, color], i) => {
    const ly = y + 56 + i * 26;
    out.push(
      text(x + 14, ly, label, { size: 13, fill: COLOR.muted }),
      text(x + w - 14, ly, value, { size: 15, weight: 700, fill: color, anchor: 'end' }),
    );
  });
  return out.join('');
}

// Drawing primitives.

function panel(x: number, y: number, w: number, h: number): string {
  return `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${h}" rx="8" fill="${COLOR.panel}" stroke="${COLOR.line}"/>`;
}

function title(x: number, y: number, label: string): string {
  return text(x + 14, y + 24, label, { size: 14, weight: 600 });
}

function text(
  x: number,
  y: number,
  content: string,
  o: { size?: number; weight?: number; fill?: string; anchor?: 'start' | 'middle' | 'end' } = {},
): string {
  const attrs = [`x="${x.toFixed(1)}"`, `y="${y.toFixed(1)}"`, `font-size="${o.size ?? 12}"`, `fill="${o.fill ?? COLOR.text}"`];
  if (o.weight) attrs.push(`font-weight="${o.weight}"`);
  if (o.anchor && o.anchor !== 'start') attrs.push(`text-anchor="${o.anchor}"`);
  return `<text ${attrs.join(' ')}>${escapeHtml(content)}</text>`;
}

/** A bar split in proportion to the values; an empty grey bar when they are all zero. */
function stackedBar(x: number, y: number, w: number, h: number, parts: readonly (readonly [string, number, string])[]): string[] {
  const sum = parts.reduce((a, [, n]) => a + n, 0);
  const out = [`<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${h}" rx="4" fill="#eaeef2"/>`];
  let at = x;
  for (const [label, n, color] of parts) {
    if (sum === 0 || n === 0) continue;
    const partW = (w * n) / sum;
    out.push(
      `<rect x="${at.toFixed(1)}" y="${y}" width="${partW.toFixed(1)}" height="${h}" fill="${color}"><title>${escapeHtml(`${label}: ${count(n)}`)}</title></rect>`,
    );
    at += partW;
  }
  return out;
}

/** Horizontal bars, one per (label, count), scaled to the largest; the count written beside each. */
function hbars(x: number, y: number, w: number, values: readonly [string, number][], color: string, step: number, labelW = 100): string[] {
  const most = Math.max(1, ...values.map(([, n]) => n));
  const barMax = w - labelW - 50;
  return values.flatMap(([label, n], i) => {
    const by = y + i * step;
    const barW = n === 0 ? 0 : Math.max(2, (barMax * n) / most);
    return [
      text(x, by + 12, label, { size: 12, fill: COLOR.muted }),
      `<rect x="${(x + labelW).toFixed(1)}" y="${by + 2}" width="${barW.toFixed(1)}" height="12" rx="2" fill="${n === 0 ? COLOR.line : color}"/>`,
      text(x + labelW + barW + 6, by + 12, count(n), { size: 12, weight: n > 0 ? 700 : 400, fill: n > 0 ? COLOR.text : COLOR.muted }),
    ];
  });
}

function errorsTable(errors: readonly RecentError[], now: Date): string {
  if (errors.length === 0) return '<p class="none">None since the process started.</p>';
  const rows = errors.map((e) => {
    const context = Object.entries(e.context)
      .map(([k, v]) => `<code>${escapeHtml(k)}=${escapeHtml(v)}</code>`)
      .join(' ');
    const level = escapeHtml(e.level);
    return (
      `<tr><td class="time">${escapeHtml(dateTime(e.time))}<br>${escapeHtml(age((now.getTime() - e.time.getTime()) / 1000))} ago</td>` +
      `<td><span class="level ${/^(warn|error|fatal)$/.test(e.level) ? level : 'error'}">${level}</span></td>` +
      `<td class="msg">${escapeHtml(e.msg)}</td><td>${context}</td></tr>`
    );
  });
  return `<table><thead><tr><th>time (UTC)</th><th>level</th><th>message</th><th>context</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

// Formatting.

function sumOf(values: Map<string, number>): number {
  let sum = 0;
  for (const n of values.values()) sum += n;
  return sum;
}

function yesNo(value: boolean | undefined, yes = 'yes', no = 'no'): string {
  return value === undefined ? 'unknown' : value ? yes : no;
}

function ratioColor(ratio: number | undefined): string {
  return ratio === undefined ? COLOR.muted : ratio >= 0.8 ? COLOR.ok : ratio >= 0.5 ? COLOR.warn : COLOR.bad;
}

function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${Math.round(n) === 1 ? one : many}`;
}

/** One decimal: the same rounding the tests and the dashboard's percentunit show. */
function percent(ratio: number | undefined): string {
  return ratio === undefined || !Number.isFinite(ratio) ? '–' : `${(ratio * 100).toFixed(1)} %`;
}

function duration(seconds: number | undefined, short = false): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '–';
  const sep = short ? '' : ' ';
  if (seconds < 0.001) return `${(seconds * 1000).toFixed(2)}${sep}ms`;
  if (seconds < 1) return `${Number((seconds * 1000).toPrecision(3))}${sep}ms`;
  return `${Number(seconds.toPrecision(3))}${sep}s`;
}

function bytes(n: number | undefined): string {
  if (n === undefined) return '?';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

function dateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

function age(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}
