/**
 * CORS on the public, read-only API (docs/decisions/024): every answer, errors included, is
 * readable from any origin with the useful headers exposed; preflights for GET and HEAD are
 * answered 204 and kept, any other method is refused saying why; the answers are the same for
 * every origin, so the edge (real Varnish, the shipped VCL) shares one copy. And from a page on
 * another origin (http://partner.example, on loopback), Chromium's fetch() reads an answer and
 * its ETag, and a preflighted request with X-API-Key succeeds.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_REQUEST_HEADERS, PREFLIGHT_MAX_AGE_S } from '../server/http/cors.js';
import { consoleProblems, openPage } from './support/browser.js';
import { CHROMIUM_FLAGS } from './support/chromium-flags.js';
import { startService, type RunningService } from './support/start-service.js';
import { startVarnish } from './support/varnish.js';

type Headers = Record<string, string | string[] | undefined>;

const PARTNER = 'https://partner.example';
/** The key of the partner whose page calls the API from Chromium (API_KEYS). */
const PARTNER_KEY = 'partner-example-key-0123456789';

/** The CORS headers every API answer carries, and no Vary on Origin. */
function expectReadableEverywhere(headers: Headers, what: string): void {
  expect(headers['access-control-allow-origin'], what).toBe('*');
  expect(headers['access-control-allow-credentials'], what).toBeUndefined();
  const exposed = String(headers['access-control-expose-headers'] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());
  for (const name of ['etag', 'x-cache', 'age', 'ratelimit', 'ratelimit-policy', 'retry-after'])
    expect(exposed, `${what}: ${name}`).toContain(name);
  expect(String(headers.vary ?? ''), what).not.toMatch(/origin/i);
  expect(headers['cross-origin-resource-policy'], what).toBe('cross-origin');
}

describe('CORS on the API', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc?.close());

  it('an answer is readable from any origin, without credentials, and is the same whatever the origin', async () => {
    const plain = await request(svc.url).get('/api/news').expect(200);
    const fromPartner = await request(svc.url).get('/api/news').set('origin', PARTNER).expect(200);
    const fromOther = await request(svc.url).get('/api/news').set('origin', 'http://127.0.0.1:9').expect(200);
    for (const [res, what] of [
      [plain, 'no Origin'],
      [fromPartner, PARTNER],
      [fromOther, 'another origin'],
    ] as const) {
      expectReadableEverywhere(res.headers, what);
      expect(res.headers['timing-allow-origin'], what).toBe('*');
    }
    expect(fromPartner.headers.etag).toBe(plain.headers.etag);
    expect(fromOther.text).toBe(plain.text);
  });

  it.each([
    ['400 (bad parameter)', '/api/news?page=0', 400],
    ['404 (not one of the 21)', '/api/doctors', 404],
    ['404 (the content API has no such item)', '/api/news/999999', 404],
    ['the OpenAPI document', '/api/openapi.json', 200],
  ])('%s is readable from any origin too', async (what, path, status) => {
    const res = await request(svc.url).get(path).set('origin', PARTNER);
    expect(res.status, what).toBe(status);
    expectReadableEverywhere(res.headers, what);
  });

  it("a 401 for a wrong key is readable from any origin too, so that the partner's script sees why", async () => {
    const res = await request(svc.url).get('/api/news').set('origin', PARTNER).set('x-api-key', 'k'.repeat(32)).expect(401);
    expectReadableEverywhere(res.headers, '401');
    expect(res.body.error.code).toBe('unauthorized');
  });

  it('a 304 carries the same CORS headers as the 200 it stands for', async () => {
    const first = await request(svc.url).get('/api/contact-us').set('origin', PARTNER).expect(200);
    const again = await request(svc.url).get('/api/contact-us').set('origin', PARTNER).set('if-none-match', String(first.headers.etag));
    expect(again.status).toBe(304);
    expectReadableEverywhere(again.headers, '304');
  });

  it('a 405 for another method is readable, with Allow', async () => {
    const res = await request(svc.url).post('/api/news').set('origin', PARTNER).expect(405);
    expectReadableEverywhere(res.headers, '405');
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('a preflight for GET or HEAD with the headers a partner sends is answered 204, and may be kept a day', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await request(svc.url)
        .options('/api/news?pageSize=1')
        .set('origin', PARTNER)
        .set('access-control-request-method', method)
        .set('access-control-request-headers', 'x-api-key, if-none-match');
      expect(res.status, method).toBe(204);
      expect(res.text, method).toBe('');
      expect(res.headers['access-control-allow-origin'], method).toBe('*');
      expect(res.headers['access-control-allow-methods'], method).toBe('GET, HEAD');
      const allowed = String(res.headers['access-control-allow-headers'])
        .split(',')
        .map((h) => h.trim().toLowerCase());
      expect(allowed, method).toEqual(expect.arrayContaining(['x-api-key', 'if-none-match']));
      expect(allowed).toEqual(ALLOWED_REQUEST_HEADERS.map((h) => h.toLowerCase()));
      expect(Number(res.headers['access-control-max-age']), method).toBe(PREFLIGHT_MAX_AGE_S);
      expect(PREFLIGHT_MAX_AGE_S).toBeGreaterThanOrEqual(7_200);
    }
  });

  it('a preflight of a path that is not one of the 21 is answered the same: the GET that follows gets the 404', async () => {
    const res = await request(svc.url).options('/api/doctors').set('origin', PARTNER).set('access-control-request-method', 'GET');
    expect(res.status).toBe(204);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('a preflight for %s is refused: 405, saying the API is read-only', async (method) => {
    const res = await request(svc.url)
      .options('/api/news')
      .set('origin', PARTNER)
      .set('access-control-request-method', method)
      .set('access-control-request-headers', 'content-type');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    expect(res.body.error.code).toBe('method_not_allowed');
    expect(res.body.error.message).toContain('read-only');
    expect(res.body.error.message).toContain(method);
    expect(res.body.error.message).toContain('use GET or HEAD');
  });

  it('an OPTIONS that is no preflight is a method the API does not take: 405', async () => {
    const res = await request(svc.url).options('/api/news').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('pages stay same-origin: no CORS headers, Cross-Origin-Resource-Policy: same-origin', async () => {
    for (const path of ['/', '/lxwm/index', '/no/such/page', '/healthz']) {
      const res = await request(svc.url).get(path).set('origin', PARTNER);
      expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(res.headers['cross-origin-resource-policy'], path).toBe('same-origin');
    }
  });
});

describe('a 429', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_MISSES: '2', RATE_LIMIT_WINDOW_S: '60' });
  });
  afterAll(() => svc?.close());

  it('is readable from any origin, with its Retry-After exposed', async () => {
    let refused: request.Response | undefined;
    // Each item is a miss, which counts against the client's budget.
    for (let id = 1; id <= 10 && !refused; id++) {
      const res = await request(svc.url).get(`/api/news/${id}`).set('origin', PARTNER);
      if (res.status === 429) refused = res;
    }
    expect(refused, 'a 429 after the budget').toBeDefined();
    expectReadableEverywhere(refused!.headers, '429');
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused!.body.error.code).toBe('too_many_requests');
  });
});

describe('through the edge (Varnish, the shipped VCL)', () => {
  let svc: RunningService;
  let edge: Awaited<ReturnType<typeof startVarnish>>;
  beforeAll(async () => {
    svc = await startService();
    edge = await startVarnish(Number(new URL(svc.url).port));
  });
  afterAll(async () => {
    await edge?.stop();
    await svc?.close();
  });

  it("one origin's cached answer is served to another, readable by both: the answer never depends on the origin", async () => {
    const first = await fetch(`${edge.url}/api/experts?pageSize=3`, { headers: { origin: PARTNER } });
    await first.arrayBuffer();
    const second = await fetch(`${edge.url}/api/experts?pageSize=3`, { headers: { origin: 'https://another.example' } });
    const body = await second.text();
    expect(second.status).toBe(200);
    expect(second.headers.get('x-edge')).toBe('HIT');
    expect(second.headers.get('access-control-allow-origin')).toBe('*');
    expect(second.headers.get('vary') ?? '').not.toMatch(/origin/i);
    expect(JSON.parse(body).data.items).toHaveLength(3);
  });

  it('a preflight passes through the edge to the service', async () => {
    const res = await fetch(`${edge.url}/api/experts`, {
      method: 'OPTIONS',
      headers: { origin: PARTNER, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('X-API-Key');
  });
});

describe('from a page on another origin, in Chromium', () => {
  let svc: RunningService;
  let partner: Server;
  let partnerOrigin: string;
  let browser: Awaited<ReturnType<typeof chromium.launch>>;
  beforeAll(async () => {
    svc = await startService({ API_KEYS: `partner-example:${PARTNER_KEY}` });
    partner = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Partner</title><p>A partner site</p>');
    });
    await new Promise<void>((resolve) => partner.listen(0, '127.0.0.1', resolve));
    // The partner's name resolves to loopback, so that the page is on an origin of its own.
    partnerOrigin = `http://partner.example:${(partner.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [...CHROMIUM_FLAGS, '--host-resolver-rules=MAP partner.example 127.0.0.1'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    partner?.close();
    await svc?.close();
  });

  it('fetch() reads /api/news and its ETag; a request with X-API-Key is preflighted and succeeds; a 404 and a 304 are readable', async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    await page.goto(`${partnerOrigin}/`);
    const seen = await page.evaluate(
      async ({ api, key }) => {
        const news = await fetch(`${api}/api/news`);
        const body = (await news.json()) as { data: { items: { title: string }[] } };
        const keyed = await fetch(`${api}/api/news?pageSize=1`, { headers: { 'X-API-Key': key } });
        const missing = await fetch(`${api}/api/doctors`);
        const etag = news.headers.get('etag') ?? '';
        const revalidated = await fetch(`${api}/api/news`, { headers: { 'If-None-Match': etag } });
        return {
          origin: location.origin,
          status: news.status,
          etag,
          cache: news.headers.get('x-cache'),
          age: news.headers.get('age'),
          titles: body.data.items.length,
          keyed: keyed.status,
          keyedItems: ((await keyed.json()) as { data: { items: unknown[] } }).data.items.length,
          missing: missing.status,
          missingCode: ((await missing.json()) as { error: { code: string } }).error.code,
          revalidated: revalidated.status,
          policy: keyed.headers.get('ratelimit-policy'),
        };
      },
      { api: svc.url, key: PARTNER_KEY },
    );
    expect(seen.origin).toBe(partnerOrigin);
    expect(seen.status).toBe(200);
    expect(seen.etag).toMatch(/^W\/"/);
    expect(seen.cache).toMatch(/^(MISS|HIT)$/);
    expect(seen.age).toMatch(/^\d+$/);
    expect(seen.titles).toBeGreaterThan(0);
    expect(seen.keyed).toBe(200);
    expect(seen.keyedItems).toBe(1);
    // The keyed request made a call to the content API: it spent the partner's budget, and can read it.
    expect(seen.policy).toMatch(/^"partner";q=\d+;w=\d+$/);
    expect(seen.missing).toBe(404);
    expect(seen.missingCode).toBe('not_found');
    expect(seen.revalidated).toBe(304);
    // The browser asked first for the requests that send X-API-Key and If-None-Match.
    const preflights = svc.logs.filter((l) => l.method === 'OPTIONS').map((l) => [l.url, l.status]);
    expect(preflights).toEqual(expect.arrayContaining([['/api/news?pageSize=1', 204]]));
    // Nothing on the console but the 404 asked for on purpose.
    expect(consoleProblems(watched)).toEqual([]);
  });
});
