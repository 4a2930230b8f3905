/**
 * POST /rum on the real service (docs/product/privacy.md, docs/decisions/036): a page view's
 * beacon raises the histograms of its route (from the route table, `other` for any other path),
 * device class and page variant; whatever is malformed (wrong types, negative or huge values,
 * unknown metrics or fields, not JSON, over 2 KB declared or streamed), from another site, past
 * the client's budget, or sent with Sec-GPC: 1 is refused or dropped and changes no histogram;
 * no beacon is logged; RUM_SAMPLE_RATE=0 turns it all off, and the page then carries no rate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUM_SAMPLE_META, VITAL_FACTS, VITALS, type Beacon } from '../shared/rum.js';
import { VITAL_HISTOGRAMS } from '../server/rum/rum-metrics.js';
import { meta } from './support/page-head.js';
import { metric } from './support/polling.js';
import { rawRequest } from './support/raw-http.js';
import { startService, type RunningService } from './support/start-service.js';

const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const TABLET_UA =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

const good: Beacon = { page: '/zjxz/index', metrics: { LCP: 1830.5, INP: 72, CLS: 0.012, FCP: 910, TTFB: 120.4 }, lcpElement: 'portrait' };

function post(svc: RunningService, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${svc.url}/rum`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': PHONE_UA, ...headers },
  });
}

/** Every series the browsers' reports feed (the refusals' own counter aside). */
async function vitals(svc: RunningService): Promise<string[]> {
  const text = await (await fetch(`${svc.url}/metrics`)).text();
  return text.split('\n').filter((l) => /^web_vitals_/.test(l) && !l.startsWith('web_vitals_beacons_total'));
}

const count = (svc: RunningService, name: string, labels: string) => metric(svc, `${name}_count{${labels}}`);

describe('the histograms', () => {
  it.each(VITALS)('%s has buckets at its good and poor thresholds', (vital) => {
    const { unit, good, poor } = VITAL_FACTS[vital];
    const scale = unit === 'ms' ? 1000 : 1;
    expect(VITAL_HISTOGRAMS[vital].buckets).toEqual(expect.arrayContaining([good / scale, poor / scale]));
  });
});

describe('POST /rum', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ RUM_SAMPLE_RATE: '0.5', RUM_BEACONS_PER_MINUTE: '1000' });
  });
  afterAll(() => svc.close());

  it('takes a page view: each metric in its histogram by route, device class and variant, in seconds (CLS a score)', async () => {
    const labels = 'route="experts",device="phone",variant="zoom"';
    const res = await post(svc, good);
    expect(res.status).toBe(204);
    expect(await count(svc, 'web_vitals_lcp_seconds', labels)).toBe(1);
    expect(await metric(svc, `web_vitals_lcp_seconds_sum{${labels}}`)).toBeCloseTo(1.8305, 6);
    expect(await metric(svc, `web_vitals_lcp_seconds_bucket{le="2",${labels}}`)).toBe(1);
    expect(await metric(svc, `web_vitals_lcp_seconds_bucket{le="1.5",${labels}}`)).toBe(0);
    expect(await metric(svc, `web_vitals_inp_seconds_sum{${labels}}`)).toBeCloseTo(0.072, 6);
    expect(await metric(svc, `web_vitals_cls_sum{${labels}}`)).toBeCloseTo(0.012, 6);
    expect(await metric(svc, `web_vitals_fcp_seconds_sum{${labels}}`)).toBeCloseTo(0.91, 6);
    expect(await metric(svc, `web_vitals_ttfb_seconds_sum{${labels}}`)).toBeCloseTo(0.1204, 6);
    expect(await metric(svc, 'web_vitals_lcp_elements_total{route="experts",element="portrait"}')).toBe(1);
    expect(await metric(svc, 'web_vitals_beacons_total{result="accepted"}')).toBe(1);
  });

  it('labels by the route table, never the path: a trailing slash is the route, an unknown page is other', async () => {
    const send = async (page: string, ua: string, extra: Record<string, string> = {}) =>
      expect((await post(svc, { page, metrics: { FCP: 500 } }, { 'user-agent': ua, ...extra })).status).toBe(204);
    await send('/lxwm/index/', TABLET_UA);
    await send('/no/such/page?id=1', FIREFOX_UA);
    await send('/zjxz/detail?id=3#top', PHONE_UA, { cookie: 'textsize=large' });
    expect(await count(svc, 'web_vitals_fcp_seconds', 'route="contact",device="tablet",variant="zoom"')).toBe(1);
    expect(await count(svc, 'web_vitals_fcp_seconds', 'route="other",device="desktop",variant="transform"')).toBe(1);
    expect(await count(svc, 'web_vitals_fcp_seconds', 'route="expertDetail",device="phone",variant="large"')).toBe(1);
    expect((await vitals(svc)).join('\n')).not.toMatch(/no\/such|id=|zjxz/);
  });

  it.each([
    ['not JSON', '{"page":'],
    ['an array', [good]],
    ['no metric', { page: '/', metrics: {} }],
    ['an unknown metric', { page: '/', metrics: { LCP: 1000, FID: 12 } }],
    ['an unknown field', { ...good, userId: 'abc' }],
    ['a metric as a string', { page: '/', metrics: { LCP: '1000' } }],
    ['a negative value', { page: '/', metrics: { CLS: -0.1 } }],
    ['a huge value', { page: '/', metrics: { LCP: 1e12 } }],
    ['a CLS past its bound', { page: '/', metrics: { CLS: 1000 } }],
    ['a page that is no path', { page: 'https://elsewhere.example/', metrics: { LCP: 1000 } }],
    ['a page too long', { page: `/${'a'.repeat(600)}`, metrics: { LCP: 1000 } }],
    ['an unknown LCP element', { page: '/', metrics: { LCP: 1000 }, lcpElement: 'video' }],
    ['an LCP element without LCP', { page: '/', metrics: { CLS: 0 }, lcpElement: 'banner' }],
  ])('refuses %s with 400 and records nothing', async (_what, body) => {
    const before = await vitals(svc);
    const refused = await metric(svc, 'web_vitals_beacons_total{result="invalid"}');
    const res = await post(svc, body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('bad_request');
    expect(await vitals(svc)).toEqual(before);
    expect(await metric(svc, 'web_vitals_beacons_total{result="invalid"}')).toBe(refused + 1);
  });

  it('refuses 1 MB bodies with 413, declared or streamed, and records nothing', async () => {
    const before = await vitals(svc);
    const huge = JSON.stringify({ ...good, page: `/${'x'.repeat(1024 * 1024)}` });
    for (const chunked of [false, true]) {
      const res = await rawRequest(svc.url, '/rum', { method: 'POST', body: huge, chunked, headers: [['content-type', 'text/plain']] });
      expect(res.status).toBe(413);
    }
    expect(await vitals(svc)).toEqual(before);
    expect(await metric(svc, 'web_vitals_beacons_total{result="too_large"}')).toBe(2);
  });

  it('drops a beacon sent with Sec-GPC: 1, and refuses one from another site', async () => {
    const before = await vitals(svc);
    expect((await post(svc, good, { 'sec-gpc': '1' })).status).toBe(204);
    expect((await post(svc, good, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(await vitals(svc)).toEqual(before);
    expect(await metric(svc, 'web_vitals_beacons_total{result="opted_out"}')).toBe(1);
    expect(await metric(svc, 'web_vitals_beacons_total{result="cross_site"}')).toBe(1);
    // A browser's own beacon says same-origin.
    expect((await post(svc, good, { 'sec-fetch-site': 'same-origin' })).status).toBe(204);
  });

  it('answers other methods 405, and logs no beacon', async () => {
    expect((await fetch(`${svc.url}/rum`, { method: 'PUT', body: '{}' })).status).toBe(405);
    const rumLines = svc.logs.filter((l) => typeof l.url === 'string' && l.url.startsWith('/rum') && l.method === 'POST');
    expect(rumLines).toEqual([]);
    // Refusals are logged once per kind and burst, without the client.
    const refused = svc.logs.filter((l) => l.msg === 'rum beacons refused');
    expect(refused.map((l) => l.result).sort()).toEqual(['cross_site', 'invalid', 'too_large']);
    expect(JSON.stringify(refused)).not.toMatch(/127\.0\.0\.1|Android/);
  });

  it('carries RUM_SAMPLE_RATE to the browser in the page', async () => {
    const page = await rawRequest(svc.url, '/');
    expect(meta(page.text, RUM_SAMPLE_META)).toBe('0.5');
  });
});

describe('a flood from one address', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ RUM_SAMPLE_RATE: '1', RUM_BEACONS_PER_MINUTE: '5', TRUSTED_PROXIES: '127.0.0.1' });
  });
  afterAll(() => svc.close());

  it('is budgeted: past RUM_BEACONS_PER_MINUTE it gets 429 with Retry-After and records nothing, while another client is taken', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await post(svc, good, { 'x-forwarded-for': '203.0.113.7' })).status);
    expect(statuses.slice(0, 5)).toEqual([204, 204, 204, 204, 204]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    const refused = await post(svc, good, { 'x-forwarded-for': '203.0.113.7' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await count(svc, 'web_vitals_lcp_seconds', 'route="experts",device="phone",variant="zoom"')).toBe(5);
    expect(await metric(svc, 'web_vitals_beacons_total{result="over_budget"}')).toBe(36);
    // Another visitor behind the same proxy has a budget of its own.
    expect((await post(svc, good, { 'x-forwarded-for': '198.51.100.20' })).status).toBe(204);
    expect(await count(svc, 'web_vitals_lcp_seconds', 'route="experts",device="phone",variant="zoom"')).toBe(6);
  });
});

describe('RUM_SAMPLE_RATE=0', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ RUM_SAMPLE_RATE: '0' });
  });
  afterAll(() => svc.close());

  it('puts no rate in the page, and /rum answers 404 and records nothing', async () => {
    const page = await rawRequest(svc.url, '/');
    expect(page.status).toBe(200);
    expect(meta(page.text, RUM_SAMPLE_META)).toBeUndefined();
    const res = await post(svc, good);
    expect(res.status).toBe(404);
    expect(await vitals(svc)).toEqual([]);
  });
});
