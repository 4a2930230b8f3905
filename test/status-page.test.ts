/**
 * The operators' status page, drawn from the real service's own report (healthy, with its content
 * API gone, and over HTTP at /status), shows the figures its counters hold, names the clients that
 * cost the content API most and the peers that forward without being trusted, escapes whatever a
 * log line or a label carries, runs no script and loads nothing, and renders in Chromium under the
 * site's own Content-Security-Policy with nothing blocked. RecentErrors, as a pino destination,
 * keeps the newest warnings and errors only.
 * UPDATE_STATUS_SCREENSHOT=1 also writes the operations guide's picture, docs/operations/status-page.png.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from '../server/http/security-headers.js';
import { RecentErrors } from '../server/observability/recent-errors.js';
import { renderStatusPage } from '../server/operations/status-page.js';
import { launchChromium, openPage } from './support/browser.js';
import { counter } from './support/polling.js';
import { later } from './support/wall-clock.js';
import { sample, sampleUrl } from './support/sample-urls.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`;
const unescape = (html: string) => html.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));

/** The "At a glance" table as label → value, unescaped. */
function glance(html: string): Map<string, string> {
  const section = /<h2>At a glance<\/h2>(.*?)<\/section>/.exec(html)?.[1] ?? '';
  return new Map(
    [...section.matchAll(/<tr><td>([^<]*)<\/td><td[^>]*>([^<]*)<\/td><\/tr>/g)].map((m) => [unescape(m[1]!), unescape(m[2]!)]),
  );
}

/** The rows of the table under a heading, each as its cells' unescaped text. */
function rowsUnder(html: string, heading: string): string[][] {
  const section = new RegExp(`<h2>${heading}[^<]*</h2>(.*?)</section>`).exec(html)?.[1] ?? '';
  return [...section.matchAll(/<tr>(.*?)<\/tr>/g)]
    .slice(1)
    .map((r) => [...r[1]!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((c) => unescape(c[1]!)));
}

/** Nothing that runs and nothing fetched: no script, and no tag with a handler, a URL or an element that loads one. */
function expectInert(html: string): void {
  expect(html).not.toMatch(/<script/i);
  const tags = html.match(/<[a-zA-Z][^>]*>/g) ?? [];
  expect(tags.length).toBeGreaterThan(40);
  for (const tag of tags) {
    expect(tag).not.toMatch(/^<(img|link|iframe|object|embed|image|svg|use|a|base|form|meta http-equiv)\b/i);
    expect(tag).not.toMatch(/\s(on[a-z]+|src|href|action|style)\s*=/i);
    expect(tag).not.toMatch(/javascript:|url\(|https?:/i);
  }
}

async function get(svc: RunningService, path: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(svc.url + path, { headers });
  await res.arrayBuffer();
  return res.status;
}

/** The service's own log lines, fed to a RecentErrors as the JSON lines pino wrote. */
function recentFrom(svc: RunningService, size?: number): RecentErrors {
  const recent = new RecentErrors(size);
  for (const entry of svc.logs) recent.write(`${JSON.stringify(entry)}\n`);
  return recent;
}

describe('RecentErrors', () => {
  it('as a pino destination (pino.multistream): warn and above but 4xx request lines, newest first, without pid, hostname and service', () => {
    const recent = new RecentErrors();
    const log = pino(
      { level: 'trace', base: { service: 'site-bff', pid: 4242, hostname: 'web-1' } },
      pino.multistream([{ level: 'trace', stream: recent }]),
    );
    log.trace('trace line');
    log.debug('debug line');
    log.info({ reqId: 'a' }, 'info line');
    // A 4xx answer's request line (warn) is the visitor's mistake; a 5xx answer's (error) is ours.
    log.warn({ reqId: 'b', status: 404, route: 'page' }, 'request');
    log.warn({ reqId: 'c', peer: '10.0.0.9' }, 'untrusted forwarder');
    log.error({ reqId: 'd', status: 500, route: 'page' }, 'request');
    log.error({ err: new TypeError('bad thing'), key: '/api/news' }, 'page loaders failed');
    log.fatal({ cause: { deep: [1, 2, 3] } }, 'giving up');
    const list = recent.list();
    expect(list.map((e) => [e.level, e.msg])).toEqual([
      ['fatal', 'giving up'],
      ['error', 'page loaders failed'],
      ['error', 'request'],
      ['warn', 'untrusted forwarder'],
    ]);
    expect(list[2]!.context).toEqual({ reqId: 'd', status: '500', route: 'page' });
    expect(list[3]!.context).toEqual({ reqId: 'c', peer: '10.0.0.9' });
    // An error as its type and message: the stack stays in the log.
    expect(list[1]!.context).toEqual({ err: 'TypeError: bad thing', key: '/api/news' });
    expect(list[0]!.context).toEqual({ cause: '{"deep":[1,2,3]}' });
    for (const e of list) {
      expect(e.time).toBeInstanceOf(Date);
      expect(Math.abs(e.time.getTime() - Date.now())).toBeLessThan(10_000);
    }
  });

  it('keeps the newest N and cuts long values', () => {
    const recent = new RecentErrors(3);
    const log = pino({ base: {} }, recent);
    for (let i = 0; i < 10; i++) log.warn({ i }, `warning ${i}`);
    expect(recent.list().map((e) => e.msg)).toEqual(['warning 9', 'warning 8', 'warning 7']);
    log.error({ ua: 'x'.repeat(5_000), emoji: `${'y'.repeat(298)}😀😀` }, 'z'.repeat(2_000));
    const [newest] = recent.list();
    expect(newest!.msg).toHaveLength(500);
    expect(newest!.msg.endsWith('…')).toBe(true);
    expect(newest!.context.ua).toHaveLength(300);
    // Cut before a character, never through the middle of one.
    expect(newest!.context.emoji).toBe(`${'y'.repeat(298)}…`);
    expect(recent.list()).toHaveLength(3);
  });

  it('reads several lines in one write, a level written as a name, and ignores what is not a log entry', () => {
    const recent = new RecentErrors();
    recent.write(
      [
        '{"level":30,"time":1,"msg":"info"}',
        'not json',
        '[1,2]',
        '{"level":"error","time":"2026-01-02T03:04:05.000Z","msg":"named level"}',
        '{"level":50,"time":1700000000000,"msg":"numeric level","pid":1,"hostname":"h","service":"s"}',
        '',
      ].join('\n'),
    );
    const list = recent.list();
    expect(list.map((e) => e.msg)).toEqual(['numeric level', 'named level']);
    expect(list[0]!.time.toISOString()).toBe('2023-11-14T22:13:20.000Z');
    expect(list[0]!.context).toEqual({});
    expect(list[1]!.time.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(() => new RecentErrors(0)).toThrow(RangeError);
  });
});

describe('status page', () => {
  it('drawn from the service after traffic: the figures its counters hold, in an inert document', async () => {
    const svc = await startService();
    try {
      for (const path of ['/', '/', '/', sampleUrl('/gnyy/detail'), sampleUrl('/gnyy/detail'), '/zjxz/index', '/news/index'])
        await get(svc, path);
      for (const path of ['/api/news?page=1', '/api/news?page=1', '/api/news?page=1', '/api/experts', '/api/banner', '/api/nowhere']) {
        await get(svc, path);
      }
      const report = await svc.service.report();
      const text = report.metricsText;
      const now = new Date();
      const html = renderStatusPage({ report: { ...report, recentErrors: recentFrom(svc).list() }, now, process: 'pid 4242 on web-1' });

      expect(html.startsWith('<!doctype html>')).toBe(true);
      expect(html.endsWith('</html>')).toBe(true);
      expectInert(html);
      expect(html).toContain('<title>Status · pid 4242 on web-1</title>');
      expect(html).toContain(`drawn ${now.toISOString().slice(0, 19).replace('T', ' ')} UTC`);
      expect(html).toContain("The API's reference page is <code>/api/docs</code>");

      const rows = glance(html);
      const proxy = (result: RegExp) => counter(text, 'proxy_cache_events_total', { result });
      const answers = proxy(/^(hit|shared|miss|stale|refresh)$/);
      expect(answers).toBeGreaterThan(5);
      expect(proxy(/^hit$/)).toBeGreaterThan(0);
      expect(rows.get('Proxy cache')).toContain(`hit ratio ${pct(proxy(/^(hit|shared)$/), answers)} · hit ${proxy(/^hit$/)} · shared 0`);
      const pageHits = counter(text, 'page_cache_events_total', { result: /^hit$/ });
      const pages = counter(text, 'page_cache_events_total');
      expect(pageHits).toBeGreaterThan(0);
      expect(rows.get('Page cache')).toContain(`hit ratio ${pct(pageHits, pages)} · hit ${pageHits} · miss ${pages - pageHits}`);
      const requests = counter(text, 'http_requests_total');
      expect(rows.get('Requests')).toBe(
        `${requests.toLocaleString('en-US')} · 5xx ${counter(text, 'http_requests_total', { status: /^5/ })} (${pct(counter(text, 'http_requests_total', { status: /^5/ }), requests)})`,
      );
      const calls = counter(text, 'upstream_request_duration_seconds_count');
      expect(calls).toBeGreaterThan(0);
      expect(rows.get('Content API')).toMatch(new RegExp(`^p50 [0-9.]+ m?s · p99 [0-9.]+ m?s over ${calls} calls`));
      // What the content API did under this machine's load is whatever the counters say.
      expect(rows.get('Circuit breaker')).toBe(
        counter(text, 'upstream_circuit_open') === 1 ? 'open: content API calls held back' : 'closed',
      );
      expect(rows.get('Redis (shared tier)')).toBe('not configured');
      expect(rows.get('Workers')).toBe(String(counter(text, 'service_workers')));
      expect(rows.get('Ready')).toBe(counter(text, 'service_ready') === 1 ? 'yes' : 'no');
      // The traffic's 4xx answers (request lines at warn) are the visitors' mistakes: not in the table.
      expect(svc.logs.some((l) => l.msg === 'request' && l.level === 40)).toBe(true);
      expect(rowsUnder(html, 'Recent warnings and errors').some((cells) => cells[2] === 'request')).toBe(false);
    } finally {
      await svc.close();
    }
  });

  it('drawn while the content API is down: the breaker open, errors by kind, the recent errors, and hostile text escaped', async () => {
    const upstream = await startTestUpstream();
    const svc = await startService({ UPSTREAM_URL: upstream.url, UPSTREAM_BREAKER_THRESHOLD: '3', UPSTREAM_BREAKER_COOLDOWN_MS: '60000' });
    try {
      expect(await get(svc, '/api/banner')).toBe(200);
      await upstream.stop();
      const statuses = [];
      for (let id = 1; id <= 6; id++) statuses.push(await get(svc, `/api/news/${id}`));
      expect(statuses.every((s) => s >= 500)).toBe(true);
      const report = await svc.service.report();
      const text = report.metricsText;
      expect(counter(text, 'upstream_circuit_open')).toBe(1);

      const rows = glance(renderStatusPage({ report, now: new Date(), process: 'p' }));
      expect(rows.get('Circuit breaker')).toBe('open: content API calls held back');
      const errors = (kind: RegExp) => counter(text, 'upstream_errors_total', { kind });
      expect(errors(/^unreachable$/)).toBeGreaterThanOrEqual(3);
      expect(errors(/^circuit_open$/)).toBeGreaterThan(0);
      expect(rows.get('Content API errors')).toBe(
        `unreachable ${errors(/^unreachable$/)} · timeout 0 · status 0 · too_large 0 · invalid 0 · circuit_open ${errors(/^circuit_open$/)}`,
      );
      expect(rows.get('Requests')).toContain(`5xx ${counter(text, 'http_requests_total', { status: /^5/ })}`);

      // What a client can put in a log line, a label or a list: its address, its User-Agent, its headers.
      const recent = recentFrom(svc);
      const log = pino({ base: {} }, recent);
      log.error({ url: '/<script>alert(1)</script>', ua: '"><img src=x onerror=alert(2)>' }, '<script>alert(3)</script> broke');
      const metrics = structuredClone(report.metrics);
      metrics
        .find((m) => m.name === 'upstream_errors_total')!
        .values.push({ value: 1, labels: { path: '/api/x', kind: '<script>alert(4)</script>' } });
      const html = renderStatusPage({
        report: { ...report, metrics, recentErrors: recent.list(), spenders: [['<i>5</i>', 3]], forwarders: [['<u>6</u>', 2]] },
        now: new Date(),
        process: '<b>p</b>',
      });
      expectInert(html);
      expect(html).toContain('&#60;script&#62;alert(3)&#60;/script&#62; broke');
      expect(html).toContain('url=/&#60;script&#62;alert(1)&#60;/script&#62;');
      expect(html).toContain('ua=&#34;&#62;&#60;img src=x onerror=alert(2)&#62;');
      expect(html).toContain('&#60;script&#62;alert(4)&#60;/script&#62; 1');
      expect(html).toContain('&#60;i&#62;5&#60;/i&#62;');
      expect(html).toContain('&#60;u&#62;6&#60;/u&#62;');
      expect(html).toContain('Status · &#60;b&#62;p&#60;/b&#62;');
      // The service's own warnings about it, newest first.
      const messages = rowsUnder(html, 'Recent warnings and errors').map((cells) => cells[2]);
      expect(messages).toContain('upstream call failed');
      expect(messages).toContain('circuit breaker open');
      expect(messages[0]).toBe('<script>alert(3)</script> broke');
    } finally {
      await svc.close();
      if (upstream.listening) await upstream.stop();
    }
  });

  it('names, over HTTP, the clients that made the most calls to the content API and a peer forwarding without being trusted (warned once)', async () => {
    const svc = await startService({ RATE_LIMIT_MISSES: '1000' });
    try {
      // Three different items: three calls for 127.0.0.1; a cached answer costs nothing.
      const paths = [`/api/news/${sample.news.id}`, `/api/news/${sample.article.id}`, `/api/experts/${sample.expert.id}`];
      for (const path of [...paths, paths[0]!, paths[0]!]) expect(await get(svc, path)).toBe(200);
      // This machine's peer, 127.0.0.1, is no trusted proxy: what it forwards is ignored, and said.
      for (let i = 0; i < 4; i++) await get(svc, '/api/banner', { 'x-forwarded-for': '203.0.113.9' });
      const html = await (await fetch(`${svc.url}/status`)).text();
      expect(rowsUnder(html, 'Clients that cost the content API most')).toEqual([['127.0.0.1', '4']]);
      expect(rowsUnder(html, 'Untrusted peers forwarding for others')).toEqual([['127.0.0.1', '4']]);
      expect(html).toContain('add it to TRUSTED_PROXIES');
      const warnings = svc.logs.filter((l) => String(l.msg).includes('not in TRUSTED_PROXIES'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40, peer: '127.0.0.1' });
      expect(counter(await (await fetch(`${svc.url}/metrics`)).text(), 'forwarded_untrusted_total')).toBe(4);
    } finally {
      await svc.close();
    }
  });

  it(
    'renders in Chromium under the site Content-Security-Policy with nothing blocked (and is the picture in docs/operations.md)',
    { timeout: 60_000 },
    async () => {
      const upstream = await startTestUpstream();
      const svc = await startService({ UPSTREAM_URL: upstream.url, CACHE_MAX_AGE_MS: '300', UPSTREAM_BREAKER_THRESHOLD: '1000' });
      const dir = await mkdtemp(join(tmpdir(), 'status-page-'));
      const browser = await launchChromium();
      const server = createServer();
      try {
        await mixedTraffic(svc, upstream);
        const report = await svc.service.report();
        const html = renderStatusPage({
          report: { ...report, recentErrors: recentFrom(svc, 12).list() },
          now: new Date(),
          process: `site-bff pid ${process.pid} on web-1`,
        });
        const csp = securityHeaders([])['content-security-policy']!;
        expect(csp).toContain("script-src 'self'");
        server.on('request', (_req, res) =>
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(html),
        );
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const { page, problems } = await openPage(browser, { width: 1280, height: 900 });
        const blocked: string[] = [];
        page.on('request', (r) => {
          if (!r.url().startsWith('http://127.0.0.1')) blocked.push(r.url());
        });
        await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
        expect(
          await page
            .locator('table')
            .first()
            .evaluate((t) => t.getBoundingClientRect().width),
        ).toBeGreaterThan(1000);
        expect(await page.locator('tbody tr').count()).toBeGreaterThan(20);
        // Nothing wider than the window.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
        const png = join(dir, 'status-page.png');
        await page.screenshot({ path: png });
        const bytes = await readFile(png);
        expect(bytes.subarray(1, 4).toString()).toBe('PNG');
        expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1280, 900]);
        expect(problems).toEqual([]);
        expect(blocked).toEqual([]);
        if (process.env.UPDATE_STATUS_SCREENSHOT === '1') await copyFile(png, 'docs/operations/status-page.png');
      } finally {
        await browser.close();
        server.close();
        await svc.close();
        if (upstream.listening) await upstream.stop();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});

/**
 * A few seconds of a real day: pages and API paths read again and again, entries going stale,
 * the content API answering 500 for a while (the last good copies stand in) and slower after.
 */
async function mixedTraffic(svc: RunningService, upstream: TestUpstream): Promise<void> {
  const pages = ['/', sampleUrl('/gnyy/detail'), '/zjxz/index', sampleUrl('/zjxz/detail'), '/news/index', '/lxwm/index'];
  const api = ['/api/news?page=1', '/api/experts', '/api/banner', '/api/award-honors', '/api/contact-us', `/api/news/${sample.news.id}`];
  const round = async () => {
    for (const path of [...pages, ...api, ...api]) await get(svc, path);
  };
  // Answers fresh for CACHE_MAX_AGE_MS (300 ms) go stale.
  const stale = () => later(350);
  for (let i = 0; i < 4; i++) await round();
  stale();
  upstream.mode = 'status-500';
  await round();
  await round();
  upstream.mode = 'ok';
  upstream.delayMs = 40;
  stale();
  for (let i = 0; i < 3; i++) await round();
  await get(svc, '/api/nowhere');
}
