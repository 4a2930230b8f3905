/**
 * The operators' status page: the state of the service at a glance, read from its metrics as
 * prom-client gives them (with workers, aggregated over all of them), with the clients that cost
 * the content API most, the peers that forward without being trusted, and the recent warnings and
 * errors. One HTML document with no script and nothing fetched, so it passes the site's CSP and
 * works through any proxy; every text it prints is escaped (labels and log lines can carry
 * whatever a client sent). Trends and history belong to the Grafana dashboard (deploy/grafana).
 */
import { escapeHtml } from '../../shared/escape-json.js';
import type { ServiceReport } from '../fleet/primary-link.js';
import { histogramQuantile, type Sample } from './metric-samples.js';
import { visitorsSection } from './rum-status.js';

export interface StatusPageInput {
  report: ServiceReport;
  now: Date;
  /** Which process drew the page (pid, host), shown in its header. */
  process: string;
}

const PROXY_RESULTS = ['hit', 'shared', 'refresh', 'miss', 'stale'];

export function renderStatusPage({ report, now, process }: StatusPageInput): string {
  const samples = (name: string): Sample[] => (report.metrics.find((m) => m.name === name)?.values as Sample[] | undefined) ?? [];
  const has = (name: string) => report.metrics.some((m) => m.name === name);
  const total = (name: string, keep: (s: Sample) => boolean = () => true) =>
    samples(name)
      .filter(keep)
      .reduce((sum, s) => sum + s.value, 0);
  const by = (name: string, label: string, known: string[] = []) => {
    const counts = new Map(known.map((k) => [k, 0]));
    for (const s of samples(name)) counts.set(String(s.labels[label]), (counts.get(String(s.labels[label])) ?? 0) + s.value);
    return counts;
  };
  const listed = (counts: Map<string, number>) => [...counts].map(([k, n]) => `${k} ${count(n)}`).join(' · ');

  const requests = total('http_requests_total');
  const errors5xx = total('http_requests_total', (s) => String(s.labels.status).startsWith('5'));
  const proxy = by('proxy_cache_events_total', 'result', PROXY_RESULTS);
  const answers = PROXY_RESULTS.reduce((sum, r) => sum + proxy.get(r)!, 0);
  const pages = by('page_cache_events_total', 'result', ['hit', 'miss']);
  const redis = has('redis_up') ? (total('redis_up') > 0 ? 'up' : 'down') : 'not configured';
  const started = samples('process_start_time_seconds')[0]?.value;
  const upstream = samples('upstream_request_duration_seconds');
  const latency = {
    p50: histogramQuantile(0.5, upstream),
    p99: histogramQuantile(0.99, upstream),
    calls: total('upstream_request_duration_seconds', (s) => s.metricName?.endsWith('_count') === true),
  };
  const ready = total('service_ready') > 0;
  const resident = total('process_resident_memory_bytes');
  const limit = samples('memory_limit_bytes')[0];
  const breakerOpen = total('upstream_circuit_open') > 0;

  const rows: [string, string, string?][] = [
    ['Ready', ready ? 'yes' : 'no', ready ? 'ok' : 'bad'],
    ['Circuit breaker', breakerOpen ? 'open: content API calls held back' : 'closed', breakerOpen ? 'bad' : 'ok'],
    ['Redis (shared tier)', redis, redis === 'down' ? 'bad' : undefined],
    ['Workers', count(total('service_workers'))],
    ['Requests', `${count(requests)} · 5xx ${count(errors5xx)} (${percent(errors5xx, requests)})`, errors5xx > 0 ? 'warn' : undefined],
    [
      'Proxy cache',
      `hit ratio ${percent(proxy.get('hit')! + proxy.get('shared')!, answers)} · ${listed(proxy)} · answered 304: ${count(total('proxy_cache_events_total', (s) => s.labels.result === 'not_modified'))} · ${count(total('proxy_cache_entries'))} entries, ${bytes(total('proxy_cache_bytes'))}`,
    ],
    [
      'Page cache',
      `hit ratio ${percent(pages.get('hit')!, pages.get('hit')! + pages.get('miss')!)} · ${listed(pages)} · ${count(total('page_cache_entries'))} pages`,
    ],
    [
      'Content API',
      `p50 ${seconds(latency.p50)} · p99 ${seconds(latency.p99)} over ${count(latency.calls)} calls · ${count(total('upstream_in_flight'))} in flight, ${count(total('upstream_queued'))} queued`,
    ],
    [
      'Content API errors',
      listed(by('upstream_errors_total', 'kind', ['unreachable', 'timeout', 'status', 'too_large', 'invalid', 'circuit_open'])),
    ],
    [
      'Refused',
      `rate limited: ${listed(by('rate_limited_total', 'kind', ['api', 'page']))} · shed: ${listed(by('load_shed_total', 'reason', ['event_loop', 'upstream_queue']))}`,
    ],
    ['Connections closed', listed(by('connections_closed_total', 'reason', ['stalled', 'per_client', 'total']))],
    [
      'Search',
      `${count(total('search_index_documents'))} items indexed · queries: ${listed(by('search_queries_total', 'result', ['found', 'partial', 'none', 'browse']))} · index updates failed: ${count(total('search_index_updates_total', (s) => s.labels.result === 'error'))}`,
    ],
    [
      'Memory',
      `resident ${bytes(resident)} of ${limit ? `${bytes(limit.value)} (${String(limit.labels.source)})` : 'n/a'} · heap used ${bytes(total('nodejs_heap_size_used_bytes'))} · caches shrunk near the limit ${count(total('memory_shed_total'))} times · event-loop lag p99 ${seconds(total('nodejs_eventloop_lag_p99_seconds'))}`,
      total('memory_pressure') > 0 ? 'bad' : undefined,
    ],
  ];
  const forwarded =
    report.forwarders.length === 0
      ? '<p class="none">None: every X-Forwarded-For came from a trusted proxy, or none was sent.</p>'
      : `<p class="bad">These peers send X-Forwarded-For but are not in TRUSTED_PROXIES, so it is ignored and every visitor behind one counts as that one address. If one is your edge or load balancer, add it to TRUSTED_PROXIES.</p>${table(
          ['peer', 'requests'],
          report.forwarders.map(([a, n]) => [a, count(n)]),
        )}`;
  const spenders =
    report.spenders.length === 0
      ? '<p class="none">No client has made the service call the content API lately.</p>'
      : table(
          ['client', 'budget points asked for'],
          report.spenders.map(([c, n]) => [c, count(n)]),
        );
  const partnerCounts = [
    by('partner_requests_total', 'partner'),
    by('partner_calls_total', 'partner'),
    by('partner_rate_limited_total', 'partner'),
  ];
  const partnerNames = [...new Set(partnerCounts.flatMap((counts) => [...counts.keys()]))].sort();
  const partners =
    partnerNames.length === 0
      ? '<p class="none">No request has come with a partner’s key (X-API-Key).</p>'
      : table(
          ['partner', 'requests', 'calls to the content API (budget points)', 'refused (429)'],
          partnerNames.map((name) => [name, ...partnerCounts.map((counts) => count(counts.get(name) ?? 0))]),
        );
  const zeroResults =
    report.zeroResults.length === 0
      ? '<p class="none">None: every search found something.</p>'
      : `<p>What visitors searched for that the content does not have (most asked first; the search page and its suggestions, since the process started): worth an article, or a word the index should know.</p>${table(
          ['query', 'times'],
          report.zeroResults.map(([q, n]) => [q, count(n)]),
        )}`;
  const recent =
    report.recentErrors.length === 0
      ? '<p class="none">None since the process started.</p>'
      : table(
          ['time (UTC)', 'level', 'message', 'context'],
          report.recentErrors.map((e) => [
            dateTime(e.time),
            e.level,
            e.msg,
            Object.entries(e.context)
              .map(([k, v]) => `${k}=${v}`)
              .join(' '),
          ]),
        );

  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">',
    `<title>Status · ${escapeHtml(process)}</title><style>${STYLE}</style></head><body>`,
    `<header><h1>Service status</h1><p>${escapeHtml(process)} · drawn ${escapeHtml(dateTime(now))} UTC${started === undefined ? '' : ` · up ${escapeHtml(age(now.getTime() / 1000 - started))}`} · counts since start (with workers, over all of them)</p><p>The API's reference page is <code>/api/docs</code> on the public port; its document, <code>/api/openapi.json</code>.</p></header><main>`,
    `<section><h2>At a glance</h2>${table(
      ['', ''],
      rows.map(([k, v]) => [k, v]),
      rows.map(([, , tone]) => tone),
    )}</section>`,
    `<section><h2>Memory budget: what each part holds against its share</h2>${memorySection(samples, resident)}</section>`,
    `<section><h2>Visitors: 75th percentile of what browsers measured, by route and device</h2>${visitorsSection(samples, histogramQuantile)}</section>`,
    `<section><h2>Clients that cost the content API most (this window and the last)</h2>${spenders}</section>`,
    `<section><h2>Partners</h2>${partners}</section>`,
    `<section><h2>Untrusted peers forwarding for others</h2>${forwarded}</section>`,
    `<section><h2>Searches that found nothing</h2>${zeroResults}</section>`,
    `<section><h2>Recent warnings and errors</h2>${recent}</section>`,
    '</main></body></html>',
  ].join('');
}

/** Each part of the memory budget against its share, and the rest of the resident set against the headroom the shares leave. */
function memorySection(samples: (name: string) => Sample[], resident: number): string {
  const byPart = (name: string) => new Map(samples(name).map((s) => [String(s.labels.part), s.value]));
  const shares = byPart('memory_budget_bytes');
  const held = byPart('memory_part_bytes');
  const slice = shares.get('slice');
  if (slice === undefined) return '<p class="none">No memory budget reported.</p>';
  shares.delete('slice');
  const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);
  const rows = [...shares].map(([part, share]) => [part, bytes(held.get(part) ?? 0), bytes(share)]);
  rows.push([
    'the rest: V8 heap, libvips, allocator (measured)',
    bytes(resident - sum(held.values())),
    bytes(slice - sum(shares.values())),
  ]);
  rows.push(['resident set (with workers, summed)', bytes(resident), bytes(slice)]);
  return table(['part', 'holds', 'share'], rows);
}

/** A table; every cell escaped; `tones` colour a row's last cell (ok, warn, bad). */
function table(head: string[], body: string[][], tones: (string | undefined)[] = []): string {
  const cells = (row: string[], tag: string, tone?: string) =>
    row.map((c, i) => `<${tag}${tone && i === row.length - 1 ? ` class="${tone}"` : ''}>${escapeHtml(c)}</${tag}>`).join('');
  const header = head.some(Boolean) ? `<thead><tr>${cells(head, 'th')}</tr></thead>` : '';
  return `<table>${header}<tbody>${body.map((row, i) => `<tr>${cells(row, 'td', tones[i])}</tr>`).join('')}</tbody></table>`;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');
const percent = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : 'n/a');
const seconds = (s: number | undefined) => (s === undefined ? 'n/a' : s < 1 ? `${(s * 1000).toFixed(1)} ms` : `${s.toFixed(2)} s`);
const bytes = (b: number) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MiB` : `${(b / 1024).toFixed(1)} KiB`);
const dateTime = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
const age = (s: number) => (s < 120 ? `${Math.round(s)} s` : s < 7200 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`);

const STYLE = [
  ':root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",sans-serif;color:#1f2328;background:#fff}',
  'body{margin:0 auto;max-width:1232px;padding:16px}header h1{font-size:20px;margin:0 0 4px}header p{margin:0;color:#57606a;font-size:13px}',
  'h2{font-size:15px;margin:20px 0 8px}table{border-collapse:collapse;width:100%;font-size:13px}',
  'th,td{border-bottom:1px solid #d0d7de;padding:5px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}th{background:#f6f8fa}',
  'code{font-family:ui-monospace,Menlo,Consolas,monospace}td:first-child{font-weight:600;white-space:nowrap}.ok{color:#1a7f37}.warn{color:#9a6700}.bad{color:#cf222e}p.none{color:#57606a}',
].join('');
