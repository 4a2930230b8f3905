/**
 * The service when the content API fails: what visitors and integrators get, what /metrics and
 * the logs say, and that the service recovers by itself when the upstream does.
 */
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../shared/site/route-table.js';

const PAGE_ROUTES = Object.values(ROUTES);
import { sampleUrl } from './support/sample-urls.js';
import { startFrozenListener } from './support/frozen-listener.js';
import { rawRequest } from './support/raw-http.js';
import { startService, type RunningService } from './support/start-service.js';
import { useUpstreamFixture } from './support/upstream-fixture.js';
import { deferred } from './support/deferred.js';
import { later } from './support/wall-clock.js';

async function metric(url: string, pattern: RegExp): Promise<number> {
  const text = (await request(url).get('/metrics')).text;
  return Number(pattern.exec(text)?.[1] ?? NaN);
}

describe('faults', () => {
  const fixture = useUpstreamFixture({ clientDir: 'dist/client' });
  const start = fixture.start;

  it('upstream dies after the cache is warm: every page and path is still served, with no visible error', async () => {
    const s = await start({ CACHE_MAX_AGE_MS: '100', CACHE_STALE_WHILE_REVALIDATE_S: '0', CACHE_STALE_IF_ERROR_S: '600' });
    for (const route of PAGE_ROUTES) await request(s.url).get(sampleUrl(route.path)).expect(200);
    await request(s.url).get('/api/banner').expect(200);
    await fixture.upstream.stop();
    try {
      // Every answer (fresh for at most 100 ms) goes stale.
      later(150);
      for (const route of PAGE_ROUTES) {
        const res = await request(s.url).get(sampleUrl(route.path));
        expect(res.status, route.path).toBe(200);
        expect(res.text, route.path).not.toContain('内容暂时无法加载');
      }
      const api = await request(s.url).get('/api/banner').expect(200);
      expect(api.headers['x-cache']).toBe('STALE');
      expect(
        await metric(s.url, /upstream_errors_total\{path="\/api\/banner",kind="(?:unreachable|circuit_open)"\} (\d+)/),
      ).toBeGreaterThan(0);
    } finally {
      await fixture.upstream.restart();
    }
    // Recovers by itself: once the cool-down passes, fresh answers come back.
    await expect
      .poll(async () => (await request(s.url).get('/api/contact-us')).headers['x-cache'], { timeout: 8_000, interval: 200 })
      .toMatch(/HIT|REFRESH|MISS/);
  });

  it('the circuit breaker stops calls after repeated failures, serves what it has, and probes again', async () => {
    const s = await start({
      UPSTREAM_BREAKER_THRESHOLD: '3',
      UPSTREAM_BREAKER_COOLDOWN_MS: '400',
      CACHE_MAX_AGE_MS: '50',
      CACHE_STALE_WHILE_REVALIDATE_S: '0',
    });
    await request(s.url).get('/api/banner').expect(200);
    fixture.upstream.mode = 'status-500';
    for (const path of ['/api/promotions', '/api/award-honors', '/api/contact-us']) await request(s.url).get(path).expect(502);
    expect(fixture.upstream.totalCalls()).toBe(4);
    // Open: no call reaches the upstream; uncached paths are 503, cached ones stale.
    const cold = await request(s.url).get('/api/experts').expect(503);
    expect(cold.body.error.code).toBe('upstream_unavailable');
    // The first answer (fresh for at most 50 ms) goes stale.
    later(60);
    const stale = await request(s.url).get('/api/banner').expect(200);
    expect(stale.headers['x-cache']).toBe('STALE');
    expect(fixture.upstream.totalCalls()).toBe(4);
    expect(await metric(s.url, /^upstream_circuit_open (\d+)$/m)).toBe(1);
    expect(await metric(s.url, /upstream_errors_total\{path="\/api\/experts",kind="circuit_open"\} (\d+)/)).toBe(1);
    expect(s.logs.some((l) => l.msg === 'circuit breaker open')).toBe(true);
    // After the cool-down one probe goes through; the upstream has recovered, so the circuit closes.
    fixture.upstream.mode = 'ok';
    // Refused at once (503, no call) until the cool-down ends; then the probe goes through.
    await expect
      .poll(async () => (await request(s.url).get('/api/experts')).status, { timeout: 5_000, message: 'the probe after the cool-down' })
      .toBe(200);
    expect(fixture.upstream.callsTo('/api/experts?page=1&pageSize=9')).toBe(1);
    expect(await metric(s.url, /^upstream_circuit_open (\d+)$/m)).toBe(0);
    await request(s.url).get('/api/promotions').expect(200);
  });

  it('a failed probe opens the circuit for another cool-down', async () => {
    const s = await start({ UPSTREAM_BREAKER_THRESHOLD: '2', UPSTREAM_BREAKER_COOLDOWN_MS: '300' });
    fixture.upstream.mode = 'status-500';
    await request(s.url).get('/api/promotions').expect(502);
    await request(s.url).get('/api/award-honors').expect(502);
    await request(s.url).get('/api/banner').expect(503);
    // Refused at once (503, no call) until the cool-down ends; then the probe, still failing (502).
    const probe = await vi.waitFor(
      async () => {
        const { status } = await request(s.url).get('/api/banner');
        expect(status).not.toBe(503);
        return status;
      },
      { timeout: 5_000, message: 'the probe after the cool-down' },
    );
    expect(probe).toBe(502);
    await request(s.url).get('/api/banner').expect(503);
    expect(fixture.upstream.totalCalls()).toBe(3);
  });

  it('timed-out calls end in time, hold no more sockets than the pool allows, and the pool recovers', async () => {
    const s = await start({ UPSTREAM_TIMEOUT_MS: '200', UPSTREAM_BREAKER_THRESHOLD: '1000', UPSTREAM_CONNECTIONS: '4' });
    fixture.upstream.mode = 'hang-headers';
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => request(s.url).get(`/api/news?page=${i + 1}`)));
    // A call that had a slot timed out (504); one that waited its whole budget for a slot was never
    // made (503 busy, with Retry-After), and is not the content API's failure.
    const timedOut = answers.filter((a) => a.status === 504);
    const refused = answers.filter((a) => a.status === 503);
    expect(timedOut.length + refused.length).toBe(20);
    expect(timedOut.length).toBeGreaterThanOrEqual(4);
    for (const a of refused) {
      expect(a.body.error.code).toBe('busy');
      expect(a.headers['retry-after']).toBe('1');
    }
    const logged = s.logs.filter((l) => l.msg === 'upstream call failed' && l.kind === 'timeout').length;
    expect(logged).toBe(timedOut.length);
    expect(fixture.upstream.openSockets()).toBeLessThanOrEqual(4);
    fixture.upstream.mode = 'ok';
    const ok = await Promise.all(Array.from({ length: 8 }, (_, i) => request(s.url).get(`/api/experts?page=${i + 1}`)));
    for (const a of ok) expect(a.status).toBe(200);
    expect(fixture.upstream.openSockets()).toBeLessThanOrEqual(4);
  });

  it('an upstream that never completes the connection gives 504 within the budget, and the log says timeout', async () => {
    const frozen = await startFrozenListener();
    const s = await startService({ UPSTREAM_URL: frozen.url, UPSTREAM_CONNECT_TIMEOUT_MS: '200', UPSTREAM_TIMEOUT_MS: '3000' });
    try {
      const res = await request(s.url).get('/api/banner').expect(504);
      expect(res.body.error.code).toBe('upstream_timeout');
      // The connect timeout acted, not the whole 3 s budget.
      expect(res.body.error.message).toBe('the content API did not answer in time');
      expect(s.logs.some((l) => l.msg === 'upstream call failed' && l.kind === 'timeout')).toBe(true);
    } finally {
      await s.close();
      frozen.close();
    }
  });

  it('a visitor who leaves while the upstream hangs is logged as aborted and counted, not as an error', async () => {
    const s = await start({ UPSTREAM_TIMEOUT_MS: '3000' });
    fixture.upstream.mode = 'hang-headers';
    const gone = await rawRequest(s.url, '/api/news?page=77', { headers: [['x-request-id', 'left-early']], timeoutMs: 100 }).catch(
      (e: Error) => e,
    );
    expect(gone).toBeInstanceOf(Error);
    await expect.poll(() => s.logs.map((l) => l.reqId), { timeout: 5_000, message: 'the request line' }).toContain('left-early');
    const line = s.logs.find((l) => l.reqId === 'left-early');
    expect(line).toMatchObject({ msg: 'request aborted', status: 'aborted', level: 30, route: '/api/news' });
    expect(await metric(s.url, /http_requests_total\{route="\/api\/news",method="GET",status="aborted"\} (\d+)/)).toBe(1);
    fixture.upstream.mode = 'ok';
  });

  it('a cold start with the upstream down: pages 503, API 503, not ready, and recovery once it is back', async () => {
    await fixture.upstream.stop();
    let s: RunningService;
    try {
      s = await start({ UPSTREAM_BREAKER_COOLDOWN_MS: '200' });
      await request(s.url).get('/').expect(503);
      await request(s.url).get('/api/banner').expect(503);
      await request(s.url).get('/readyz').expect(503);
      await request(s.url).get('/healthz').expect(200);
    } finally {
      await fixture.upstream.restart();
    }
    await expect.poll(async () => (await request(s.url).get('/')).status, { timeout: 5_000, interval: 100 }).toBe(200);
    await request(s.url).get('/readyz').expect(200);
  });

  it('a call still under way is not an answer held: /readyz asks the content API itself, and says not ready when it fails', async () => {
    const s = await start();
    fixture.upstream.mode = 'status-500';
    const release = deferred();
    fixture.upstream.hold = release.promise;
    try {
      const banner = request(s.url)
        .get('/api/banner')
        .then((r) => r.status);
      await expect
        .poll(() => fixture.upstream.callsTo('/api/banner'), { timeout: 5_000, message: 'the first call to be under way' })
        .toBe(1);
      const ready = request(s.url)
        .get('/readyz')
        .then((r) => [r.status, (r.body as { status: string }).status]);
      // Nothing is held yet: readiness makes its own call rather than count the one under way.
      await expect
        .poll(() => fixture.upstream.callsTo('/api/contact-us'), { timeout: 5_000, message: 'the readiness probe’s own call' })
        .toBe(1);
      release.resolve();
      expect(await ready).toEqual([503, 'not ready']);
      expect(await banner).toBe(502);
    } finally {
      release.resolve();
    }
  });

  it('a stale answer being refreshed is still an answer held: /readyz says ready while the refresh is under way', async () => {
    const s = await start({ CACHE_MAX_AGE_MS: '100', CACHE_STALE_WHILE_REVALIDATE_S: '60' });
    await request(s.url).get('/api/banner').expect(200);
    // The answer (fresh for at most 100 ms) goes stale.
    later(150);
    const release = deferred();
    fixture.upstream.hold = release.promise;
    try {
      expect((await request(s.url).get('/api/banner').expect(200)).headers['x-cache']).toBe('STALE');
      await expect.poll(() => fixture.upstream.callsTo('/api/banner'), { timeout: 5_000, message: 'the refresh to be under way' }).toBe(2);
      const ready = await request(s.url).get('/readyz');
      expect([ready.status, (ready.body as { status: string }).status]).toEqual([200, 'ready']);
      expect(fixture.upstream.callsTo('/api/contact-us')).toBe(0);
    } finally {
      release.resolve();
    }
  });
});
