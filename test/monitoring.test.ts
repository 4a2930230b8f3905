/**
 * The operators' monitoring artefacts hold against the real tools and the real service: the alert
 * rules and their unit tests pass promtool, the example Prometheus config is valid, every query of
 * the Grafana dashboard is valid PromQL over metrics the live service reports, and a real
 * Prometheus scrapes the service, loads the alerts and answers the dashboard's queries.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { histogramQuantile, type Sample } from '../server/operations/metric-samples.js';
import { promtool, startPrometheus, type PrometheusServer } from './support/prometheus.js';
import { startRedis } from './support/redis-server.js';
import { sampleUrl } from './support/sample-urls.js';
import { startService, type RunningService } from './support/start-service.js';

const ALERTS = 'deploy/prometheus/alerts.yml';
const ALERT_TESTS = 'deploy/prometheus/alerts.test.yml';
const CONFIG = 'deploy/prometheus/prometheus.yml';
const DASHBOARD = 'deploy/grafana/site-dashboard.json';

/** The service's own metrics (server/observability/metrics.ts), which the dashboard must all show. */
const SERVICE_METRICS = [
  'http_requests_total',
  'http_request_duration_seconds',
  'proxy_cache_events_total',
  'page_cache_events_total',
  'upstream_request_duration_seconds',
  'upstream_errors_total',
  'upstream_circuit_open',
  'proxy_cache_entries',
  'proxy_cache_bytes',
  'page_cache_entries',
  'redis_up',
  'redis_errors_total',
  'purges_total',
  'edge_purges_total',
  'rate_limited_total',
  'load_shed_total',
  'connections_closed_total',
  'upstream_in_flight',
  'upstream_queued',
  'service_ready',
  'service_workers',
];

// The dashboard, as Grafana's JSON model (only what the tests read).

interface Target {
  expr: string;
  refId: string;
  datasource: { type: string; uid: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { type: string; uid: string };
  targets?: Target[];
}
interface Variable {
  name: string;
  type: string;
  query: unknown;
  definition?: string;
  datasource?: { type: string; uid: string };
  allValue?: string;
}
interface Dashboard {
  title: string;
  uid: string;
  panels: Panel[];
  templating: { list: Variable[] };
}

const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as Dashboard;
const queryPanels = dashboard.panels.filter((p) => p.type !== 'row');

/** The dashboard's queries with Grafana's variables given values Prometheus can evaluate. */
function dashboardQueries(rateInterval: string): { panel: string; refId: string; expr: string }[] {
  return queryPanels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({
      panel: p.title,
      refId: t.refId,
      expr: t.expr.replaceAll('$__rate_interval', rateInterval).replaceAll('$job', 'site').replaceAll('$instance', '.+'),
    })),
  );
}

const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'group_left', 'group_right', 'Inf', 'NaN', 'inf', 'nan']);

/**
 * The metric names a PromQL expression selects. promtool has already said it is valid PromQL;
 * this finds its selectors: a name before `{`, or a bare name that is neither a function,
 * an aggregation, a keyword nor a label list of by/without/on/ignoring/group_left/group_right.
 */
function metricNamesIn(expr: string): Set<string> {
  const names = new Set<string>();
  let e = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  e = e.replace(/([a-zA-Z_:][a-zA-Z0-9_:]*)?\s*\{[^}]*\}/g, (_m, name: string | undefined) => {
    if (name) names.add(name);
    return ' ';
  });
  e = e.replace(/\[[^\]]*\]/g, ' ').replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  for (const m of e.matchAll(/(?<![0-9.])[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const rest = e.slice(m.index + m[0].length).trimStart();
    if (rest.startsWith('(') || KEYWORDS.has(m[0])) continue;
    names.add(m[0]);
  }
  return names;
}

/** The family a series name belongs to: `x_bucket` of histogram `x` is `x`. */
function familyOf(series: string, families: Map<string, { type: string }>): string | undefined {
  if (families.has(series)) return series;
  const m = /^(.*)_(bucket|sum|count)$/.exec(series);
  const family = m && families.get(m[1]!);
  return family && (family.type === 'histogram' || family.type === 'summary') ? m[1] : undefined;
}

/** A browser's report of a page view on a phone (server/rum), which the service takes with RUM_SAMPLE_RATE set. */
const BEACON = {
  body: JSON.stringify({ page: '/', metrics: { LCP: 1800, INP: 80, CLS: 0.02, FCP: 900, TTFB: 150 }, lcpElement: 'banner' }),
  headers: {
    'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  },
};

/** Some of everything: pages (rendered, then from the page cache), API paths (missed, then hit), a 404, a browser's beacon. */
async function traffic(url: string): Promise<void> {
  const paths = [
    '/',
    '/',
    sampleUrl('/gnyy/detail'),
    sampleUrl('/gnyy/detail'),
    '/zjxz/index',
    '/api/news?page=1',
    '/api/news?page=1',
    '/api/experts',
    '/api/experts',
    '/api/banner',
    '/api/nowhere',
    '/healthz',
  ];
  for (const path of paths) {
    const res = await fetch(url + path);
    await res.arrayBuffer();
  }
  await (await fetch(`${url}/rum`, { method: 'POST', ...BEACON })).arrayBuffer();
}

/** The service's metric families by name, with their type, as prom-client lists them. */
async function families(svc: RunningService): Promise<Map<string, { type: string }>> {
  const json = await svc.service.metrics.registry.getMetricsAsJSON();
  return new Map(json.map((m) => [m.name, { type: String(m.type) }]));
}

async function scrape(svc: RunningService): Promise<string> {
  const res = await fetch(`${svc.url}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

describe('alert rules (deploy/prometheus/alerts.yml)', () => {
  const alertNames = async () => [...(await readFile(ALERTS, 'utf8')).matchAll(/^\s+- alert: (\w+)$/gm)].map((m) => m[1]!);

  it('pass promtool check rules', async () => {
    const run = promtool('check', 'rules', ALERTS);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`SUCCESS: ${(await alertNames()).length} rules found`);
  });

  it('pass their unit tests, which see each alert fire on series that should raise it and stay quiet on healthy ones', async () => {
    const run = promtool('test', 'rules', ALERT_TESTS);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('SUCCESS');
    expect(run.status).toBe(0);
    // Every alert is tested both ways (promtool has just checked that each expectation holds).
    const tests = await readFile(ALERT_TESTS, 'utf8');
    const cases = [...tests.matchAll(/alertname: (\w+)\n\s+exp_alerts:( \[\])?/g)].map((m) => ({ name: m[1]!, fires: m[2] === undefined }));
    const names = await alertNames();
    expect(names).toEqual(
      expect.arrayContaining([
        'SiteContentApiUnreachable',
        'SiteContentApiSlow',
        'SiteCircuitBreakerOpen',
        'SiteProxyCacheHitRatioLow',
        'SiteHigh5xxRate',
        'SiteServingStale',
        'SiteRedisDown',
        'SiteInstanceNotReady',
        'SiteVisitorsLcpSlow',
        'SiteVisitorsInpSlow',
        'SiteVisitorsLayoutShifts',
      ]),
    );
    for (const name of names) {
      expect(
        cases.some((c) => c.name === name && c.fires),
        `${name} is tested firing`,
      ).toBe(true);
      expect(
        cases.some((c) => c.name === name && !c.fires),
        `${name} is tested quiet`,
      ).toBe(true);
    }
  });
});

describe('Prometheus config (deploy/prometheus/prometheus.yml)', () => {
  it('passes promtool check config, with the alert rules it references', () => {
    const run = promtool('check', 'config', CONFIG);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('is valid prometheus config file syntax');
    expect(run.stdout).toMatch(/Checking deploy\/prometheus\/alerts\.yml\s+SUCCESS: \d+ rules found/);
  });
});

describe('Grafana dashboard (deploy/grafana/site-dashboard.json)', () => {
  it('imports anywhere: a templated Prometheus data source, job and instance variables, every query on ${datasource}', () => {
    const vars = new Map(dashboard.templating.list.map((v) => [v.name, v]));
    expect(vars.get('datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' });
    expect(vars.get('job')).toMatchObject({ type: 'custom', query: 'site' });
    const instance = vars.get('instance')!;
    expect(instance).toMatchObject({ type: 'query', allValue: '.+', datasource: { type: 'prometheus', uid: '${datasource}' } });
    expect(instance.definition).toBe('label_values(service_workers{job="$job"}, instance)');
    expect(dashboard.uid).toMatch(/^[a-z0-9-]{1,40}$/);
    expect(queryPanels.length).toBeGreaterThan(20);
    for (const panel of queryPanels) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const t of panel.targets!) {
        expect(t.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
        // Every selector keeps to the chosen job and instances.
        for (const selector of t.expr.match(/\{[^}]*\}/g) ?? [])
          expect(selector, panel.title).toContain('job="$job",instance=~"$instance"');
      }
    }
  });

  it('lays its panels out on the 24-column grid, none over another, with unique ids', () => {
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    const cells = new Map<string, string>();
    for (const p of dashboard.panels) {
      const { x, y, w, h } = p.gridPos;
      expect(x >= 0 && w > 0 && x + w <= 24 && h > 0, p.title).toBe(true);
      for (let i = x; i < x + w; i++) {
        for (let j = y; j < y + h; j++) {
          expect(cells.get(`${i},${j}`), `${p.title} overlaps`).toBeUndefined();
          cells.set(`${i},${j}`, p.title);
        }
      }
    }
  });

  it('shows what operators asked for', () => {
    const titles = queryPanels.map((p) => p.title.toLowerCase());
    for (const topic of [
      'requests by route',
      'latency by route',
      'proxy cache hit ratio by path',
      'page cache hit ratio',
      'stale answers',
      'content api latency',
      'content api errors by kind',
      'circuit breaker',
      'redis connected',
      'redis errors',
      'purges by source',
      'edge purges',
      'rate limited',
      'shed',
      'connections closed',
      'in flight and queued',
      'workers',
      'ready',
      'event-loop lag',
      'memory',
      'visitors: lcp p75 by route',
      'visitors: inp p75 by route',
      'visitors: cls p75 by route',
      'visitors: share of good page views',
    ]) {
      expect(
        titles.some((t) => t.includes(topic)),
        topic,
      ).toBe(true);
    }
  });

  it('has only valid PromQL: every query, as a recording rule, passes promtool check rules', async () => {
    const queries = dashboardQueries('5m');
    const instanceQuery = /^label_values\((.*), instance\)$/.exec(
      dashboard.templating.list.find((v) => v.name === 'instance')!.definition!,
    )![1]!;
    const rules = [...queries.map((q) => q.expr), instanceQuery.replaceAll('$job', 'site')]
      .map((expr, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(expr)}\n`)
      .join('');
    const dir = await mkdtemp(join(tmpdir(), 'dashboard-rules-'));
    try {
      const file = join(dir, 'dashboard.rules.yml');
      await writeFile(file, `groups:\n  - name: dashboard\n    rules:\n${rules}`);
      const run = promtool('check', 'rules', file);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`SUCCESS: ${queries.length + 1} rules found`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // Two services started and visited, one search index built for each: longer than a test's default on a busy machine.
  it(
    'reads only metrics the live service reports, and every metric of the service (redis_up only where REDIS_URL is set)',
    { timeout: 90_000 },
    async () => {
      // The names reader itself, on what the dashboard writes.
      expect(metricNamesIn('sum by (le, route) (rate(a_bucket{x="{y}"}[5m])) / on (instance) group_left b or c * 0 > bool 1e3')).toEqual(
        new Set(['a_bucket', 'b', 'c']),
      );
      const used = new Set<string>();
      for (const q of dashboardQueries('5m')) for (const name of metricNamesIn(q.expr)) used.add(name);
      used.add('service_workers'); // the instance variable's query

      const redis = await startRedis();
      const alone = await startService({ RUM_SAMPLE_RATE: '1' });
      const withRedis = await startService({ REDIS_URL: redis.url, RUM_SAMPLE_RATE: '1' });
      try {
        await traffic(alone.url);
        await traffic(withRedis.url);
        const without = await families(alone);
        const withIt = await families(withRedis);
        const missing = (families: Map<string, { type: string }>) => [...used].filter((name) => !familyOf(name, families)).sort();
        expect(missing(withIt)).toEqual([]);
        expect(missing(without)).toEqual(['redis_up']);
        // The dashboard leaves none of the service's own metrics out (Node's defaults: the ones it shows).
        const usedFamilies = new Set([...used].map((name) => familyOf(name, withIt)));
        const own = [...withIt.keys()].filter((name) => !/^(process|nodejs)_/.test(name));
        expect(own.filter((name) => !usedFamilies.has(name))).toEqual([]);
        expect(own).toEqual(expect.arrayContaining(SERVICE_METRICS));
      } finally {
        await Promise.all([alone.close(), withRedis.close()]);
        await redis.stop();
      }
    },
  );
});

describe('a real Prometheus', () => {
  it('scrapes the live service, loads the alert rules, and answers every dashboard query', { timeout: 90_000 }, async () => {
    // A budget of beacons that the loop's one address does not exhaust.
    const svc = await startService({ RUM_SAMPLE_RATE: '1', RUM_BEACONS_PER_MINUTE: '1000000' });
    let prometheus: PrometheusServer | undefined;
    let running = true;
    const load = (async () => {
      while (running) {
        await traffic(svc.url);
        // Pacing, not waiting: steady traffic for the scrapes to count.
        await sleep(50);
      }
    })();
    try {
      prometheus = await startPrometheus({ targets: [new URL(svc.url).host], ruleFiles: [resolve(ALERTS)] });
      const p = prometheus;
      const waitFor = (what: string, check: () => Promise<void>, timeout = 20_000) =>
        vi.waitFor(check, { timeout, message: what }).catch((error: unknown) => {
          throw new Error(`${String(error)}; prometheus said:\n${p.log()}`);
        });
      const value = async (expr: string) => {
        const [first] = await p.query(expr);
        return first === undefined ? undefined : Number(first.value[1]);
      };

      await waitFor('the target to be up', async () => expect(await value('up{job="site"}')).toBe(1));
      // Enough samples for rate() over a minute.
      await waitFor('three scrapes of http_requests_total', async () =>
        expect(await value('max(count_over_time(http_requests_total{job="site"}[1m]))')).toBeGreaterThanOrEqual(3),
      );
      await waitFor('three scrapes of the beacons’ histograms', async () =>
        expect(await value('max(count_over_time(web_vitals_lcp_seconds_count{job="site"}[1m]))')).toBeGreaterThanOrEqual(3),
      );

      for (const q of dashboardQueries('1m')) {
        await expect(p.query(q.expr), `${q.panel} ${q.refId}`).resolves.toBeInstanceOf(Array);
      }
      const answered = async (title: string) => {
        const queries = dashboardQueries('1m').filter((q) => q.panel === title);
        expect(queries.length, title).toBeGreaterThan(0);
        return (await Promise.all(queries.map((q) => p.query(q.expr)))).flat();
      };
      // The panels the traffic feeds show data (counters that never moved, such as purges, have none).
      for (const title of [
        'Requests by route',
        'Answers by status',
        'Latency by route (p50, p99)',
        'Proxy cache hit ratio by path',
        'Proxy cache results',
        'Page cache hit ratio by route',
        'Content API latency by path (p50, p99)',
        'Circuit breaker',
        'Content API calls in flight and queued',
        'Workers',
        'Ready',
        'Event-loop lag p99',
        'Memory',
        'Visitors: LCP p75 by route',
        'Visitors: INP p75 by route',
        'Visitors: CLS p75 by route',
        'Visitors: FCP and TTFB p75 by route',
        'Visitors: share of good page views',
        'Visitors: beacons by result',
      ]) {
        expect((await answered(title)).length, title).toBeGreaterThan(0);
      }
      const byRoute = await answered('Requests by route');
      const routes = byRoute.map((s) => s.metric.route!);
      expect(routes).toEqual(expect.arrayContaining(['/api/news', '/api/experts']));
      expect(routes.some((r) => r.startsWith('page'))).toBe(true);

      // The alert rules, as Prometheus read them: each with a severity, a summary and a description, and evaluated without error.
      await waitFor('the alert rules to be evaluated', async () => {
        const pending = (await p.rules())
          .flatMap((g) => g.rules)
          .filter((r) => r.health !== 'ok' || r.lastEvaluation === '0001-01-01T00:00:00Z');
        expect(pending.map((r) => r.name)).toEqual([]);
      });
      const rules = (await p.rules()).flatMap((g) => g.rules);
      expect(rules.length).toBe(13);
      for (const rule of rules) {
        expect(rule.type).toBe('alerting');
        expect(rule.lastError ?? '', String(rule.name)).toBe('');
        expect((rule.labels as Record<string, string>).severity, String(rule.name)).toMatch(/^(critical|warning)$/);
        const annotations = rule.annotations as Record<string, string>;
        expect(annotations.summary, String(rule.name)).toBeTruthy();
        expect(annotations.description?.length, String(rule.name)).toBeGreaterThan(80);
      }

      // The status page's quantiles are PromQL's: with the traffic stopped, the same buckets give the same p50 and p99.
      running = false;
      await load;
      // A refresh begun by the last request may still land: scrape again until Prometheus holds the same count.
      const upstreamLatency = async () => {
        await scrape(svc); // what Prometheus reads, so that both hold the same tallies
        const json = await svc.service.metrics.registry.getMetricsAsJSON();
        return json.find((m) => m.name === 'upstream_request_duration_seconds')!.values as Sample[];
      };
      const observed = (samples: Sample[]) => samples.filter((s) => s.metricName?.endsWith('_count')).reduce((n, s) => n + s.value, 0);
      let samples = await upstreamLatency();
      await waitFor('Prometheus to hold the last scrape', async () => {
        samples = await upstreamLatency();
        expect(await value('sum(upstream_request_duration_seconds_count{job="site"})')).toBe(observed(samples));
      });
      expect(observed(samples)).toBeGreaterThan(0);
      for (const q of [0.5, 0.9, 0.99]) {
        const promql = await value(`histogram_quantile(${q}, sum by (le) (upstream_request_duration_seconds_bucket{job="site"}))`);
        expect(histogramQuantile(q, samples)).toBeCloseTo(promql!, 9);
      }
    } finally {
      running = false;
      await load;
      await prometheus?.stop();
      await svc.close();
    }
  });
});
