/**
 * What operators see of the browsers' reports (docs/decisions/036): /status shows the 75th
 * percentile of each metric per route and device, from the same buckets PromQL would read,
 * coloured by the metric's thresholds; with WORKERS=2 one scrape and one status page sum every
 * worker's beacons; and a page's Content-Security-Policy lets a beacon go to its own origin only.
 */
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltServer } from './support/built-server.js';
import { metric } from './support/polling.js';
import { startService, type RunningService } from './support/start-service.js';

const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

const beacon = (page: string, metrics: Record<string, number>) => JSON.stringify({ page, metrics });

async function post(url: string, body: string, ua?: string): Promise<number> {
  const res = await fetch(`${url}/rum`, { method: 'POST', body, headers: ua ? { 'user-agent': ua } : {} });
  await res.arrayBuffer();
  return res.status;
}

const unescape = (html: string) => html.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));

/** The Visitors table's rows: each cell's text, and its tone class where it has one. */
function visitors(html: string): { text: string; tone?: string }[][] {
  const section = /<h2>Visitors[^<]*<\/h2>(.*?)<\/section>/.exec(html)?.[1] ?? '';
  return [...section.matchAll(/<tr>(.*?)<\/tr>/g)]
    .slice(1)
    .map((r) => [...r[1]!.matchAll(/<td(?: class="(\w+)")?>([^<]*)<\/td>/g)].map((c) => ({ text: unescape(c[2]!), tone: c[1] })));
}

describe('the status page', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ RUM_SAMPLE_RATE: '1' });
  });
  afterAll(() => svc.close());

  it('says so while no browser has reported', async () => {
    const html = await (await fetch(`${svc.url}/status`)).text();
    expect(html).toContain('No browser has reported a page view since the start');
  });

  it('shows the p75 of each metric per route and device, coloured good, needs improvement or poor', async () => {
    // Phones on the home page: LCP 1.8 s (good), INP 300 ms (needs improvement), CLS 0.3 (poor), twice.
    for (let i = 0; i < 2; i++) expect(await post(svc.url, beacon('/', { LCP: 1800, INP: 300, CLS: 0.3, TTFB: 90 }), PHONE_UA)).toBe(204);
    // Desktops on the experts page: LCP 5 s (poor), once.
    expect(await post(svc.url, beacon('/zjxz/index', { LCP: 5000, FCP: 1000 }))).toBe(204);
    const html = await (await fetch(`${svc.url}/status`)).text();
    const rows = visitors(html);
    // route, device, page views, then LCP, INP, CLS, FCP, TTFB: busiest first.
    expect(rows.map((r) => r.map((c) => c.text))).toEqual([
      ['home', 'phone', '2', '1.88 s', '275 ms', '0.438', 'n/a', '88 ms'],
      ['experts', 'desktop', '1', '5.50 s', 'n/a', 'n/a', '875 ms', 'n/a'],
    ]);
    expect(rows[0]!.slice(3).map((c) => c.tone)).toEqual(['ok', 'warn', 'bad', 'none', 'ok']);
    expect(rows[1]![3]!.tone).toBe('bad');
    // The same figure PromQL's histogram_quantile gives from these buckets: 1.5 + 0.5 × 0.75.
    const labels = 'route="home",device="phone",variant="zoom"';
    expect(await metric(svc, `web_vitals_lcp_seconds_bucket{le="1.5",${labels}}`)).toBe(0);
    expect(await metric(svc, `web_vitals_lcp_seconds_bucket{le="2",${labels}}`)).toBe(2);
  });
});

describe('a page’s Content-Security-Policy', () => {
  it('lets scripts connect (and beacons go) to the page’s own origin only', async () => {
    const svc = await startService({ RUM_SAMPLE_RATE: '1' }, { clientDir: 'dist/client' });
    try {
      const res = await fetch(`${svc.url}/`);
      await res.arrayBuffer();
      const csp = res.headers.get('content-security-policy') ?? '';
      const connect = csp.split(';').find((d) => d.trim().startsWith('connect-src'));
      expect(connect?.trim()).toBe("connect-src 'self'");
    } finally {
      await svc.close();
    }
  });
});

describe('WORKERS=2', () => {
  it('one scrape and one status page sum the beacons every worker took', { timeout: 60_000 }, async () => {
    const server = await startBuiltServer({
      UPSTREAM_URL: '',
      NODE_ENV: 'production',
      CONTENT: 'demo',
      WORKERS: '2',
      RUM_SAMPLE_RATE: '1',
    });
    try {
      // Each beacon on a connection of its own, so that the primary hands them to both workers.
      const fresh = new Agent({ pipelining: 0, keepAliveTimeout: 1 });
      const sent = 20;
      for (let i = 0; i < sent; i++) {
        const res = await request(`${server.url}/rum`, {
          method: 'POST',
          body: beacon('/lxwm/index', { LCP: 1000 + i }),
          headers: { connection: 'close', 'user-agent': PHONE_UA },
          dispatcher: fresh,
        });
        await res.body.arrayBuffer();
        expect(res.statusCode).toBe(204);
      }
      await fresh.close();
      const labels = 'route="contact",device="phone",variant="zoom"';
      expect(await metric(server, `web_vitals_lcp_seconds_count{${labels}}`)).toBe(sent);
      expect(await metric(server, `web_vitals_lcp_seconds_sum{${labels}}`)).toBeCloseTo(sent + (sent * (sent - 1)) / 2000, 6);
      const rows = visitors(await (await fetch(`${server.url}/status`)).text());
      expect(rows.map((r) => r.slice(0, 3).map((c) => c.text))).toEqual([['contact', 'phone', String(sent)]]);
    } finally {
      server.kill();
    }
  });
});
