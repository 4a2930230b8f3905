/** The proxy API against the embedded content API and a test upstream that misbehaves. */
import { asSent } from './support/served-image.js';
import { sourceOfAddress } from '../shared/media-url.js';
import { mediaTag } from '../server/media/media-address.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, apiError, type ApiName } from '../shared/contract/api-paths.js';
import { rawRequest } from './support/raw-http.js';
import { later } from './support/wall-clock.js';
import { sampleApiPath } from './support/sample-urls.js';
import { startService, type RunningService } from './support/start-service.js';
import { useUpstreamFixture } from './support/upstream-fixture.js';

const concretePath = sampleApiPath;

describe('proxy on the embedded content API', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.close());

  it.each(Object.keys(API_PATHS) as ApiName[])('%s answers 200 with contract-valid data, then a HIT', async (name) => {
    const path = concretePath(name);
    const first = await request(svc.url).get(path).expect(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(first.headers['x-cache']).toBe('MISS');
    // Its media are this site's addresses, each made from a source the contract allows.
    const parsed = API_PATHS[name].answer.safeParse(asSent(first.body));
    expect(parsed.success, JSON.stringify(parsed.error?.issues[0])).toBe(true);
    const second = await request(svc.url).get(path).expect(200);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body).toEqual(first.body);
  });

  it('featured treatments sit under data.data', async () => {
    const res = await request(svc.url).get('/api/specialty-treatment').expect(200);
    expect(res.body.data.data).toHaveLength(8);
  });

  it('lists page and filter by category, carrying their total', async () => {
    const res = await request(svc.url).get('/api/news?categoryId=19&page=2&pageSize=5').expect(200);
    expect(res.body.data.page).toBe(2);
    expect(res.body.data.pageSize).toBe(5);
    expect(res.body.data.items.length).toBeLessThanOrEqual(5);
    expect(res.body.data.total).toBeGreaterThanOrEqual(12);
    for (const item of res.body.data.items) expect(item.categoryId).toBe(19);
  });

  it('sends cache headers: Cache-Control for browsers and edges, tags, ETag, Age, X-Cache, Server-Timing', async () => {
    const res = await request(svc.url).get('/api/banner').expect(200);
    // A browser asks again each time (a publish reaches it at once); an edge keeps it while fresh, then stale.
    expect(res.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+, stale-if-error=\d+$/);
    // Its address, its path, and each image it names (a publish of an image's new bytes reaches it).
    const banners = (res.body as { data: { image: { src: string } }[] }).data;
    expect(res.headers['cache-tag']).toBe(
      ['all', 'url:/api/banner', '/api/banner', ...new Set(banners.map((b) => mediaTag(sourceOfAddress(b.image.src)!)))].join(', '),
    );
    expect(res.headers.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(Number(res.headers.age)).toBeGreaterThanOrEqual(0);
    expect(res.headers['server-timing']).toMatch(/cache;desc=(HIT|MISS)/);
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('answers If-None-Match with 304', async () => {
    const first = await request(svc.url).get('/api/contact-us').expect(200);
    const again = await request(svc.url).get('/api/contact-us').set('if-none-match', first.headers.etag!).expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
  });

  it('compresses JSON for clients that accept it', async () => {
    const br = await request(svc.url).get('/api/experts?pageSize=12').set('accept-encoding', 'br').expect(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.data.items).toHaveLength(12);
    const gz = await request(svc.url).get('/api/experts?pageSize=12').set('accept-encoding', 'gzip').expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/Accept-Encoding/);
    const plain = await request(svc.url).get('/api/experts?pageSize=12').set('accept-encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('answers a browser zstd on the miss (quick to make), and brotli from the next request on', async () => {
    const url = '/api/experts?pageSize=11';
    const browser = 'gzip, deflate, br, zstd';
    // fetch decodes zstd as well as br and gzip.
    const get = () => fetch(svc.url + url, { headers: { 'accept-encoding': browser } });
    const first = await get();
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(first.headers.get('content-encoding')).toBe('zstd');
    const firstBody = await first.json();
    for (let i = 0; i < 2; i++) {
      const later = await get();
      expect(later.headers.get('x-cache')).toBe('HIT');
      expect(later.headers.get('content-encoding')).toBe('br');
      expect(later.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(await later.json()).toEqual(firstBody);
    }
    // Without zstd the first answer of a new body is gzip.
    const gzipFirst = await fetch(`${svc.url}/api/experts?pageSize=13`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(gzipFirst.headers.get('content-encoding')).toBe('gzip');
    // A client that prefers identity gets it, whatever else it takes.
    const plain = await request(svc.url).get(url).set('accept-encoding', 'identity, gzip;q=0.5').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('answers HEAD without a body', async () => {
    const res = await request(svc.url).head('/api/banner').expect(200);
    expect(res.text).toBeUndefined();
    expect(res.headers['content-length']).toBeTruthy();
  });

  it('normalises equal queries to one cache entry', async () => {
    await request(svc.url).get('/api/academic-research?pageSize=5&categoryId=15').expect(200);
    const res = await request(svc.url).get('/api/academic-research?categoryId=15&pageSize=5&page=1').expect(200);
    expect(res.headers['x-cache']).toBe('HIT');
  });

  it('passes an upstream 404 through as 404 JSON and caches it briefly', async () => {
    const first = await request(svc.url).get('/api/news/999999').expect(404);
    expect(apiError.safeParse(first.body).success).toBe(true);
    const second = await request(svc.url).get('/api/news/999999').expect(404);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.headers['cache-control']).toBe('public, max-age=0, s-maxage=10');
  });

  it.each([
    ['/api/news/abc', 400, /id/],
    ['/api/news/0', 400, /id/],
    ['/api/news/-1', 400, /id/],
    ['/api/news/1.5', 400, /id/],
    ['/api/news/0x10', 400, /id/],
    ['/api/news/007', 400, /id/],
    ['/api/news/99999999999', 400, /id/],
    ['/api/news?page=0', 400, /page/],
    ['/api/news?page=abc', 400, /page/],
    ['/api/news?pageSize=51', 400, /pageSize/],
    ['/api/news?categoryId=15', 400, /categoryId/],
    ['/api/news?sort=date', 400, /sort/],
    ['/api/news?page=1&page=2', 400, /page/],
    ['/api/news?a[b]=1', 400, /a\[b\]/],
    ['/api/banner?page=1', 400, /page/],
    ['/api/nope', 404, /not a content API path/],
    ['/api/categories/7/articles', 404, /not a content API path/],
    ['/api/news/1/extra', 404, /not a content API path/],
    ['/api/../etc/passwd', 404, /not a content API path/],
    ['/api/news/..%2f..%2fetc', 400, /id/],
  ])('%s answers %i JSON naming the problem', async (path, status, message) => {
    const res = await request(svc.url).get(path).expect(status);
    expect(apiError.safeParse(res.body).success).toBe(true);
    expect(res.body.error.message).toMatch(message);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it.each(['post', 'put', 'delete', 'patch'] as const)('%s is 405 with Allow', async (method) => {
    const res = await request(svc.url)[method]('/api/banner').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('serves the OpenAPI 3.1 document of the 21 paths and the site search', async () => {
    const res = await request(svc.url).get('/api/openapi.json').expect(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths).sort()).toEqual([...Object.values(API_PATHS).map((p) => p.template), '/api/search'].sort());
    expect(res.body.paths['/api/news'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['categoryId', 'page', 'pageSize']);
    expect(res.body.paths['/api/news/{id}'].get.responses['200'].content['application/json'].schema.properties.data).toBeTruthy();
  });

  it('logs one JSON line per request with id, route, status, duration and cache status', async () => {
    await request(svc.url).get('/api/promotions').set('x-request-id', 'trace-123').expect(200);
    await expect.poll(() => svc.logs.map((l) => l.reqId), { timeout: 5_000, message: 'the request line' }).toContain('trace-123');
    const line = svc.logs.find((l) => l.reqId === 'trace-123');
    expect(line).toBeDefined();
    expect(line).toMatchObject({ msg: 'request', method: 'GET', url: '/api/promotions', route: '/api/promotions', status: 200 });
    expect(line!.cache).toBeDefined();
    expect(typeof line!.responseTime).toBe('number');
  });

  it('writes the request line as valid JSON whatever the target holds', async () => {
    // Node's parser refuses bytes outside printable ASCII; quotes and backslashes pass.
    const target = '/api/banner?x="\\{}|^`';
    const res = await rawRequest(svc.url, target, { headers: [['x-request-id', 'odd-target']] });
    expect(res.status).toBe(400);
    await expect.poll(() => svc.logs.map((l) => l.reqId), { timeout: 5_000, message: 'the request line' }).toContain('odd-target');
    const line = svc.logs.find((l) => l.reqId === 'odd-target');
    expect(line).toMatchObject({ msg: 'request', method: 'GET', status: 400, route: 'api', level: 40 });
    expect(line!.url).toBe(target);
  });

  it('exposes Prometheus metrics that count what happened', async () => {
    const res = await request(svc.url).get('/metrics').expect(200);
    expect(res.text).toMatch(/proxy_cache_events_total\{path="\/api\/banner",result="hit"\} \d+/);
    expect(res.text).toMatch(/proxy_cache_events_total\{path="\/api\/banner",result="miss"\} 1/);
    expect(res.text).toMatch(/http_requests_total\{route="\/api\/banner",method="GET",status="200"\} \d+/);
    expect(res.text).toMatch(/upstream_request_duration_seconds_count\{path="\/api\/banner"\} 1/);
    expect(res.text).toMatch(/proxy_cache_entries [1-9]\d*/);
    expect(res.text).toMatch(/proxy_cache_bytes [1-9]\d*/);
  });

  it('exposes the request duration as a Prometheus histogram: cumulative buckets, +Inf, sum and count', async () => {
    for (let i = 0; i < 3; i++) await request(svc.url).get('/api/contact-us').expect(200);
    const text = (await request(svc.url).get('/metrics').expect(200)).text;
    expect(text).toMatch(/# TYPE http_request_duration_seconds histogram/);
    const series = (suffix: string) =>
      [
        ...text.matchAll(
          new RegExp(`^http_request_duration_seconds_${suffix}\\{(?:le="([^"]+)",)?route="/api/contact-us"\\} (\\S+)$`, 'gm'),
        ),
      ].map((m) => ({ le: m[1], value: Number(m[2]) }));
    const buckets = series('bucket');
    expect(buckets.map((b) => b.le)).toEqual([
      '0.0005',
      '0.001',
      '0.0025',
      '0.005',
      '0.01',
      '0.025',
      '0.05',
      '0.1',
      '0.25',
      '0.5',
      '1',
      '2.5',
      '5',
      '+Inf',
    ]);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
    const [count] = series('count');
    expect(count!.value).toBeGreaterThanOrEqual(3);
    expect(buckets.at(-1)!.value).toBe(count!.value);
    expect(series('sum')[0]!.value).toBeGreaterThan(0);
  });

  it('reports health and readiness', async () => {
    await request(svc.url).get('/healthz').expect(200, { status: 'ok' });
    await request(svc.url).get('/readyz').expect(200, { status: 'ready' });
  });
});

describe('proxy against a misbehaving upstream', () => {
  const fixture = useUpstreamFixture();
  const start = fixture.start;

  it('50 concurrent misses for one key make one upstream call', async () => {
    const s = await start();
    fixture.upstream.delayMs = 100;
    const answers = await Promise.all(Array.from({ length: 50 }, () => request(s.url).get('/api/experts?page=1')));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(fixture.upstream.callsTo('/api/experts?page=1&pageSize=9')).toBe(1);
  });

  it('serves a stale entry at once and refreshes it once in the background', async () => {
    const s = await start({ CACHE_MAX_AGE_MS: '300', CACHE_STALE_WHILE_REVALIDATE_S: '60' });
    await request(s.url).get('/api/banner').expect(200);
    // The answer (fresh for at most 300 ms from its fetch) goes stale.
    later(350);
    fixture.upstream.delayMs = 150;
    try {
      const stale = await Promise.all(Array.from({ length: 5 }, () => request(s.url).get('/api/banner')));
      for (const r of stale) expect(r.headers['x-cache']).toBe('STALE');
      // Requests made while the refresh runs are answered stale too, and start none of their own.
      await expect
        .poll(async () => (await request(s.url).get('/api/banner')).headers['x-cache'], { timeout: 5_000, message: 'the refreshed answer' })
        .toBe('HIT');
    } finally {
      fixture.upstream.delayMs = 0;
    }
    expect(fixture.upstream.callsTo('/api/banner')).toBe(2);
  });

  it('with the upstream stopped: a cached path is served STALE, an uncached one is 503 JSON', async () => {
    const s = await start({ CACHE_MAX_AGE_MS: '50', CACHE_STALE_WHILE_REVALIDATE_S: '0', CACHE_STALE_IF_ERROR_S: '600' });
    const good = await request(s.url).get('/api/contact-us').expect(200);
    await fixture.upstream.stop();
    try {
      // The answer (fresh for at most 50 ms) goes stale.
      later(80);
      const stale = await request(s.url).get('/api/contact-us').expect(200);
      expect(stale.headers['x-cache']).toBe('STALE');
      expect(stale.body).toEqual(good.body);
      const cold = await request(s.url).get('/api/banner').expect(503);
      expect(cold.body.error.code).toBe('upstream_unavailable');
      await request(s.url).get('/readyz').expect(200);
      const metrics = await request(s.url).get('/metrics');
      expect(metrics.text).toMatch(/upstream_errors_total\{path="\/api\/banner",kind="unreachable"\} 1/);
      expect(s.logs.some((l) => l.msg === 'upstream call failed' && l.kind === 'unreachable')).toBe(true);
    } finally {
      await fixture.upstream.restart();
    }
  });

  it('an upstream slower than the timeout gives 504, or the stale answer', async () => {
    const s = await start({ CACHE_MAX_AGE_MS: '50', CACHE_STALE_WHILE_REVALIDATE_S: '0', UPSTREAM_TIMEOUT_MS: '300' });
    await request(s.url).get('/api/promotions').expect(200);
    fixture.upstream.mode = 'hang-headers';
    const cold = await request(s.url).get('/api/award-honors').expect(504);
    expect(cold.body.error.code).toBe('upstream_timeout');
    // The cold call took its 300 ms budget: the first answer (fresh for at most 50 ms) is stale by now.
    const stale = await request(s.url).get('/api/promotions').expect(200);
    expect(stale.headers['x-cache']).toBe('STALE');
  });

  it('a body trickled past the timeout gives 504', async () => {
    const s = await start();
    fixture.upstream.mode = 'trickle-body';
    const res = await request(s.url).get('/api/banner').expect(504);
    expect(res.body.error.code).toBe('upstream_timeout');
  });

  it.each([
    ['malformed-json', 502, 'upstream_invalid'],
    ['wrong-shape', 502, 'upstream_invalid'],
    ['oversize', 502, 'upstream_invalid'],
    ['status-500', 502, 'upstream_status'],
    ['redirect', 502, 'upstream_status'],
    ['close-mid-body', 502, 'upstream_invalid'],
  ] as const)('upstream %s gives %i and is not cached', async (mode, status, code) => {
    const s = await start();
    fixture.upstream.mode = mode;
    const first = await request(s.url).get('/api/group-introduction').expect(status);
    expect(first.body.error.code).toBe(code);
    const second = await request(s.url).get('/api/group-introduction').expect(status);
    expect(second.body.error.code).toBe(code);
    expect(fixture.upstream.callsTo('/api/group-introduction')).toBe(2);
    fixture.upstream.mode = 'ok';
    const ok = await request(s.url).get('/api/group-introduction').expect(200);
    expect(ok.headers['x-cache']).toBe('MISS');
  });

  it('readiness fails when the upstream is down and nothing is cached', async () => {
    const s = await start();
    await fixture.upstream.stop();
    try {
      await request(s.url).get('/readyz').expect(503);
    } finally {
      await fixture.upstream.restart();
    }
  });
});
