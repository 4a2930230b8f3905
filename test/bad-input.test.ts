/**
 * Hostile and malformed requests against the real service: paths, ids, query strings, headers,
 * methods and bodies, as named cases and as bounded fast-check properties. The upstream is a test
 * content API that counts every URL it receives: whatever arrives, the proxy may only ever ask it
 * for one of the 21 contract paths with a plain id and that path's own query parameters.
 */
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError } from '../shared/contract/api-paths.js';
import { NEWS_CATEGORY_IDS, RESEARCH_CATEGORY_IDS } from '../shared/constants.js';
import { canonicalHref } from '../shared/site/href.js';
import { ROUTES } from '../shared/site/route-table.js';

const PAGE_ROUTES = Object.values(ROUTES);
import { routerSafe } from '../shared/router-safe.js';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { renderChannel, type RenderEvent } from '../server/observability/diagnostics.js';
import { isContractUrl, outsideContract } from './support/contract-urls.js';
import { rawRequest, type RawResponse } from './support/raw-http.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const CLIENT_DIR = 'dist/client';
const ORIGIN = 'https://www.mingtong-eye.example';
const EVIL = 'evil.example';
const NUM_RUNS = 150;

const expertId = demoContent.experts[0]!.id;
const newsItemId = demoContent.contentItems.find((i) => i.categoryId === 19)!.id;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A JSON error of the stable shape, with one of the allowed statuses, never cached. */
function expectJsonError(res: RawResponse, statuses: readonly number[], message?: RegExp | string, cached = false): void {
  const what = `${res.status} ${res.text.slice(0, 200)}`;
  expect(statuses, what).toContain(res.status);
  expect(res.headers['content-type'], what).toMatch(/^application\/json/);
  const body = JSON.parse(res.text) as unknown;
  expect(apiError.safeParse(body).success, what).toBe(true);
  if (message !== undefined) {
    const text = (body as { error: { message: string } }).error.message;
    if (typeof message === 'string') expect(text, what).toContain(message);
    else expect(text, what).toMatch(message);
  }
  // Refusals are never cached; an upstream 404 passed through is cached briefly.
  if (cached) expect(res.headers['cache-control'], what).toMatch(/max-age=\d+/);
  else expect(res.headers['cache-control'], what).toBe('no-store');
}

/** Percent-encodes every character outside printable ASCII (what a lenient client sends). */
function lenientTarget(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c > 0x20 && c < 0x7f ? ch : [...Buffer.from(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** Printable ASCII kept, controls and spaces encoded, everything else as raw UTF-8 bytes. */
function rawBytesTarget(s: string): Buffer {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c <= 0x20 || c === 0x7f ? `%${c.toString(16).toUpperCase().padStart(2, '0')}` : ch;
  }
  return Buffer.from(out, 'utf8');
}

/** A well-formed path: every character outside RFC 3986 pchar (and `/`) percent-encoded, `%` included. */
function wellFormedPath(s: string): string {
  let out = '';
  for (const ch of s) {
    out += /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/.test(ch)
      ? ch
      : [...Buffer.from(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** Pieces of traversal, encoding and id tricks, glued together at random. */
const TOKENS = [
  '..',
  '.',
  '/',
  '//',
  '\\',
  '%2e',
  '%2E',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '%252e',
  '%252f',
  '%c0%ae',
  '%c0%af',
  '%ff',
  '%00',
  '%',
  '?',
  '&',
  '=',
  '#',
  ';',
  ' ',
  '\t',
  '+',
  'api',
  'news',
  'experts',
  'banner',
  'categories',
  '6',
  'articles',
  'children',
  'academic-research-categories',
  '17',
  '1',
  '0',
  '-1',
  '01',
  '1.5',
  '1e3',
  '0x1f',
  '2147483648',
  '99999999999',
  'page',
  'pageSize',
  'categoryId',
  '[]',
  '[a]',
  '新闻',
  '１',
  'é',
  'http://127.0.0.1:1/',
  '@127.0.0.1',
];
const tricky = fc.array(fc.constantFrom(...TOKENS), { maxLength: 12 }).map((a) => a.join(''));
const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  tricky,
  fc.webPath(),
  fc.webSegment(),
);

describe('bad input', () => {
  let upstream: TestUpstream;
  let svc: RunningService;
  beforeAll(async () => {
    upstream = await startTestUpstream();
    svc = await startService({ UPSTREAM_URL: upstream.url, PUBLIC_ORIGIN: ORIGIN }, { clientDir: CLIENT_DIR });
  });
  afterAll(async () => {
    await svc?.close();
    await upstream?.stop();
  });
  beforeEach(() => upstream.calls.clear());

  const get = (target: string | Buffer, headers?: ReadonlyArray<readonly [string, string]>) => rawRequest(svc.url, target, { headers });
  const expectOnlyContractCalls = () => expect(outsideContract(upstream.calls)).toEqual([]);

  it('the contract URL check itself accepts the 21 paths and refuses look-alikes', () => {
    for (const ok of [
      '/api/banner',
      '/api/news/5',
      '/api/experts/2147483647',
      '/api/news?categoryId=19&page=1&pageSize=9',
      '/api/categories/6/articles?page=2&pageSize=9',
    ]) {
      expect(isContractUrl(ok), ok).toBe(true);
    }
    for (const bad of [
      '/api/news/0',
      '/api/news/01',
      '/api/news/2147483648',
      '/api/news/1/..',
      '/api/news/%2e%2e',
      '/api/../etc/passwd',
      '/api/banner?',
      '/api/banner?page=1',
      '/api/news?page=1&page=2',
      '/api/news?page=1?x=1',
      '/api/news?foo=1',
      '/api/news?page=01',
      '/etc/passwd',
      '/api/news/1\\..',
      '/api//banner',
    ]) {
      expect(isContractUrl(bad), bad).toBe(false);
    }
  });

  describe('paths under /api', () => {
    it.each([
      // traversal that is no dot segment: encoded twice, or a separator of another system
      ['/api/news/%252e%252e%252fbanner', 400],
      ['/api/news/%25252e', 400],
      ['/api/news/%c0%ae%c0%ae', 400],
      ['/api/news%5c1', 404],
      ['/api//banner', 404],
      ['/api/banner/', 404],
      ['/api/banner%00', 404],
      ['/api/banner%2f', 404],
      ['/api/banner;x=1', 404],
      ['/api/BANNER', 404],
      ['/api/%62anner', 404],
      ['/api/news/1;jsessionid=x', 400],
      ['/api/news/1/', 404],
      ['/api/news//1', 404],
      ['/api/categories/7/articles', 404],
      ['/api/academic-research-categories/19/children', 404],
      ['/api/news/@127.0.0.1', 400],
      ['/api/http://127.0.0.1:1/', 404],
      // non-ASCII, percent-encoded as browsers send it
      ['/api/%E6%96%B0%E9%97%BB', 404],
      ['/api/news/%EF%BC%91', 400],
      ['/api/news/%D9%A1', 400],
      ['/api/news/%C3%A9', 400],
      ['/api/news/%ff', 400],
      // ids
      ['/api/news/-1', 400],
      ['/api/news/0', 400],
      ['/api/news/00', 400],
      ['/api/news/-0', 400],
      ['/api/news/2147483648', 400],
      ['/api/news/4294967297', 400],
      ['/api/news/99999999999999999999999', 400],
      ['/api/news/1.5', 400],
      ['/api/news/1.0', 400],
      ['/api/news/1.', 400],
      ['/api/news/.5', 400],
      ['/api/news/1e3', 400],
      ['/api/news/1E3', 400],
      ['/api/news/0x10', 400],
      ['/api/news/0X1F', 400],
      ['/api/news/0b1', 400],
      ['/api/news/0o7', 400],
      ['/api/news/007', 400],
      ['/api/news/01', 400],
      ['/api/news/+1', 400],
      ['/api/news/%2B1', 400],
      ['/api/news/%201', 400],
      ['/api/news/1%20', 400],
      ['/api/news/%091', 400],
      ['/api/news/1%0A', 400],
      ['/api/news/1_000', 400],
      ['/api/news/1,000', 400],
      ['/api/news/Infinity', 400],
      ['/api/news/NaN', 400],
      ['/api/news/null', 400],
      ['/api/news/undefined', 400],
      ['/api/news/%5B1%5D', 400],
      ['/api/experts/-5', 400],
      ['/api/experts/3.0', 400],
      ['/api/experts/0x1', 400],
    ] as const)('%s answers %i JSON and calls no path outside the 21', async (target, status) => {
      const res = await get(target);
      expectJsonError(res, [status], status === 400 ? /id/ : /not a content API path/);
      expectOnlyContractCalls();
      expect(upstream.totalCalls()).toBe(0);
    });

    it.each([
      ['/api/../etc/passwd'],
      ['/api/../../../../etc/passwd'],
      ['/api/news/../banner'],
      ['/api/news/..'],
      ['/api/news/.'],
      ['/api/news/%2e%2e'],
      ['/api/news/%2E%2E%2Fbanner'],
      ['/api/news/..%2f..%2fetc%2fpasswd'],
      ['/api/%2e%2e/%2e%2e/etc/passwd'],
      ['/api/%2e%2e%2fbanner'],
      ['/api/news/..\\..\\etc\\passwd'],
      ['/api/news/1\\..\\..\\banner'],
      ['/api/experts/1/..'],
      ['/api/experts/1/../../banner'],
      ['/api/experts/1%2f..%2f..%2fbanner'],
      ['/api/./banner'],
      ['/api/banner/.'],
      ['/api/categories/6/articles/..'],
    ])('%s (a dot segment, encoded or not) is refused 400 at the front door, as under every prefix, and calls nothing', async (target) => {
      const res = await get(target);
      expectJsonError(res, [400], /dot segment/);
      expect(upstream.totalCalls()).toBe(0);
    });

    it('/api\\banner is not under /api/: the 404 page, and no upstream call for it', async () => {
      const res = await get('/api\\banner');
      expect(res.status).toBe(404);
      expect(outsideContract(upstream.calls)).toEqual([]);
      expect(upstream.callsTo('/api/banner')).toBe(0);
    });

    it('an overlong path is a JSON error, not a 500 or an upstream call: 400 past the API’s 2 KB, 414 past the front door’s 8 KB', async () => {
      for (const target of ['/api/' + 'a'.repeat(4_096), '/api/news/' + '1'.repeat(4_096), '/api/news?page=' + '9'.repeat(4_096)]) {
        expectJsonError(await get(target), [400], /too long/);
      }
      for (const target of [
        '/api/' + 'a'.repeat(10_240),
        '/api/news/' + '1'.repeat(10_240),
        '/api/news/..' + '%2f..'.repeat(2_000),
        '/api/news?page=' + '9'.repeat(10_240),
      ]) {
        expectJsonError(await get(target), [414], /longer than 8192 bytes/);
      }
      expect(upstream.totalCalls()).toBe(0);
    });

    it('raw (unencoded) UTF-8 bytes in the path are refused with a 400, never a 500', async () => {
      for (const target of ['/api/新闻', '/api/news/１', '/api/news/١', '/api/news/1é']) {
        const res = await get(Buffer.from(target, 'utf8'));
        // Node's HTTP parser refuses these bytes before the service sees them (an empty 400).
        expect(res.status, target).toBe(400);
        if (res.text) expectJsonError(res, [400]);
      }
      expect(upstream.totalCalls()).toBe(0);
    });

    it('the largest plain ids that the contract names are not refused', async () => {
      const res = await get('/api/news/999999999');
      expectJsonError(res, [404], /does not exist/, true);
      expect(upstream.callsTo('/api/news/999999999')).toBe(1);
    });

    it.each(['1000000000', '2147483647'])('id %s, within 1..2147483647, is passed upstream (404 here), not refused', async (id) => {
      const res = await get(`/api/news/${id}`);
      expectJsonError(res, [404], /does not exist/, true);
      expect(upstream.callsTo(`/api/news/${id}`)).toBe(1);
    });
  });

  describe('query strings under /api', () => {
    it.each([
      ['/api/news?foo=1', 'foo'],
      ['/api/news?Page=1', 'Page'],
      ['/api/news?PAGE=1', 'PAGE'],
      ['/api/news?page=1&page=2', 'page'],
      ['/api/news?page=1&page=1', 'page'],
      ['/api/news?pageSize=5&pageSize=5', 'pageSize'],
      ['/api/news?page=1&p%61ge=2', 'page'],
      ['/api/news?a[b]=1', 'a[b]'],
      ['/api/news?a[]=1', 'a[]'],
      ['/api/news?page[]=1', 'page[]'],
      ['/api/news?page[]=1&page[]=2', 'page[]'],
      ['/api/news?page[x]=1', 'page[x]'],
      ['/api/news?page%5B%5D=1', 'page[]'],
      ['/api/news?page.x=1', 'page.x'],
      ['/api/news?__proto__=1', '__proto__'],
      ['/api/news?__proto__[page]=50', '__proto__[page]'],
      ['/api/news?constructor=1', 'constructor'],
      ['/api/news?constructor[prototype][x]=1', 'constructor[prototype][x]'],
      ['/api/news?hasOwnProperty=1', 'hasOwnProperty'],
      ['/api/news?toString=1', 'toString'],
      ['/api/news?page=' + '9'.repeat(1_500), 'page'],
      ['/api/news?pageSize=' + '1'.repeat(1_500), 'pageSize'],
      ['/api/news?page=1%26pageSize%3D50', 'page'],
      ['/api/news?page%3D1', 'page=1'],
      ['/api/news?page=1%3Fx', 'page'],
      ['/api/news?page=1?x=1', 'page'],
      ['/api/news?page=1;pageSize=2', 'page'],
      ['/api/news?page=1%00', 'page'],
      ['/api/news?page=1%23x', 'page'],
      ['/api/news?page=1%2C2', 'page'],
      ['/api/news?page=1,2', 'page'],
      ['/api/news?page=-1', 'page'],
      ['/api/news?page=0', 'page'],
      ['/api/news?page=1.0', 'page'],
      ['/api/news?page=1e1', 'page'],
      ['/api/news?page=0x1', 'page'],
      ['/api/news?page=01', 'page'],
      ['/api/news?page=+1', 'page'],
      ['/api/news?page=%201', 'page'],
      ['/api/news?page=%EF%BC%91', 'page'],
      ['/api/news?page=', 'page'],
      ['/api/news?page', 'page'],
      ['/api/news?page=1001', 'page'],
      ['/api/news?pageSize=51', 'pageSize'],
      ['/api/news?pageSize=1000000', 'pageSize'],
      ['/api/news?categoryId=15', 'categoryId'],
      ['/api/news?categoryId=19&categoryId=20', 'categoryId'],
      ['/api/news?categoryId=19,20', 'categoryId'],
      ['/api/academic-research?categoryId=19', 'categoryId'],
      ['/api/news?page=1&pageSize=5&categoryId=19&x=1', 'x'],
      ['/api/banner?page=1', 'page'],
      ['/api/banner?x', 'x'],
      ['/api/experts/1?page=1', 'page'],
      ['/api/news/5?id=6', 'id'],
      ['/api/news?' + 'z'.repeat(60) + '=1', 'z'.repeat(60)],
    ] as const)('%s is a 400 naming %s', async (target, name) => {
      const res = await get(target);
      expectJsonError(res, [400], new RegExp(`^${escapeRe(name)}(:|\\.| )`));
      expect(upstream.totalCalls()).toBe(0);
    });

    it.each([
      ['/api/news?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9'],
      ['/api/news?=1'],
      ['/api/news?&=&'],
      ['/api/news?page=1&' + 'x'.repeat(100) + '=1'],
    ])('%s is a 400 JSON', async (target) => {
      const res = await get(target);
      expectJsonError(res, [400]);
      expect(upstream.totalCalls()).toBe(0);
    });

    it.each([
      [
        [
          '/api/news?page=2&pageSize=5',
          '/api/news?pageSize=5&page=2',
          '/api/news?page=%32&pageSize=5',
          '/api/news?p%61ge=2&pageSize=%35',
          '/api/news?&page=2&&pageSize=5&',
        ],
        '/api/news?page=2&pageSize=5',
      ],
      [
        ['/api/experts', '/api/experts?', '/api/experts?page=1', '/api/experts?pageSize=9', '/api/experts?pageSize=9&page=1'],
        '/api/experts?page=1&pageSize=9',
      ],
      [
        [
          '/api/academic-research?categoryId=16&pageSize=4',
          '/api/academic-research?pageSize=4&categoryId=16&page=1',
          '/api/academic-research?%63ategoryId=%31%36&pageSize=4',
        ],
        '/api/academic-research?categoryId=16&page=1&pageSize=4',
      ],
      [
        ['/api/categories/6/articles?pageSize=3&page=2', '/api/categories/6/articles?page=2&pageSize=3'],
        '/api/categories/6/articles?page=2&pageSize=3',
      ],
      [['/api/award-honors', '/api/award-honors?', '/api/award-honors?&'], '/api/award-honors'],
    ] as const)('equal spellings share one cache entry: %j', async (spellings, key) => {
      const answers: RawResponse[] = [];
      for (const target of spellings) answers.push(await get(target));
      for (const [i, res] of answers.entries()) {
        expect(res.status, spellings[i]).toBe(200);
        expect(res.text, spellings[i]).toBe(answers[0]!.text);
        if (i > 0) expect(res.headers['x-cache'], spellings[i]).toBe('HIT');
      }
      expect(answers[0]!.headers['x-cache']).toBe('MISS');
      expect([...upstream.calls.entries()]).toEqual([[key, 1]]);
    });

    it('property: any order and any percent-encoding of the same parameters is one cache entry and one upstream call', async () => {
      const lists = [
        { path: '/api/news', categories: NEWS_CATEGORY_IDS as readonly number[] },
        { path: '/api/academic-research', categories: RESEARCH_CATEGORY_IDS as readonly number[] },
        { path: '/api/experts', categories: [] as readonly number[] },
        { path: '/api/categories/6/articles', categories: [] as readonly number[] },
      ];
      const seen = new Set<string>();
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...lists),
          fc.integer({ min: 1, max: 40 }),
          fc.integer({ min: 1, max: 50 }),
          fc.nat({ max: 8 }),
          fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
          fc.boolean(),
          fc.nat({ max: 2 }),
          async (list, page, pageSize, categoryPick, encode, reverse, extraAmps) => {
            const category =
              list.categories.length > 0 && categoryPick < list.categories.length ? list.categories[categoryPick] : undefined;
            const params: [string, string][] = [
              ['page', String(page)],
              ['pageSize', String(pageSize)],
            ];
            if (category !== undefined) params.push(['categoryId', String(category)]);
            const key = `${list.path}?${[...params]
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, v]) => `${k}=${v}`)
              .join('&')}`;
            let n = 0;
            const spell = (s: string) => [...s].map((c) => (encode[n++ % encode.length] ? `%${c.charCodeAt(0).toString(16)}` : c)).join('');
            const ordered = reverse ? [...params].reverse() : params;
            const amps = '&'.repeat(extraAmps);
            const plain = `${list.path}?${params.map(([k, v]) => `${k}=${v}`).join('&')}`;
            const odd = `${list.path}?${amps}${ordered.map(([k, v]) => `${spell(k)}=${spell(v)}`).join(`&${amps}`)}${amps}`;
            const first = await get(plain);
            const second = await get(odd);
            expect(first.status, plain).toBe(200);
            expect(second.status, odd).toBe(200);
            expect(second.headers['x-cache'], odd).toBe('HIT');
            expect(second.text).toBe(first.text);
            seen.add(key);
            // At most one upstream call per key over the whole run (earlier tests may have cached it already).
            expect(upstream.callsTo(key), key).toBeLessThanOrEqual(1);
            expectOnlyContractCalls();
          },
        ),
        { numRuns: NUM_RUNS },
      );
      expect(upstream.calls.size).toBeLessThanOrEqual(seen.size);
    });
  });

  describe('properties over arbitrary input', () => {
    it('GET /api/ + any string never answers 500 and never calls the upstream outside the 21 paths', async () => {
      await fc.assert(
        fc.asyncProperty(anyText, fc.boolean(), async (s, rawBytes) => {
          const target = rawBytes ? rawBytesTarget('/api/' + s) : lenientTarget('/api/' + s);
          const res = await get(target);
          const what = `${String(target)} -> ${res.status} ${res.text.slice(0, 120)}`;
          expect([200, 400, 404], what).toContain(res.status);
          if (res.status !== 200 && res.text) expectJsonError(res, [400, 404]);
          expectOnlyContractCalls();
        }),
        { numRuns: 200 },
      );
    });

    it('GET /api/<one of the 21 paths>?<any query> never answers 500 and never calls outside the 21', async () => {
      const paths = [
        '/api/news',
        '/api/experts',
        '/api/banner',
        '/api/academic-research',
        '/api/categories/6/articles',
        `/api/news/${newsItemId}`,
      ];
      const query = fc.oneof(
        fc.webQueryParameters(),
        fc.string({ maxLength: 60 }),
        tricky,
        fc
          .array(
            fc.tuple(
              fc.constantFrom('page', 'pageSize', 'categoryId', 'page[]', 'a[b]', '__proto__', 'x'),
              fc.oneof(fc.string({ maxLength: 8 }), fc.integer().map(String)),
            ),
            { maxLength: 10 },
          )
          .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...paths), query, async (path, q) => {
          const res = await get(lenientTarget(`${path}?${q}`));
          const what = `${path}?${q} -> ${res.status} ${res.text.slice(0, 120)}`;
          expect([200, 400, 404], what).toContain(res.status);
          if (res.status !== 200) expectJsonError(res, [400, 404]);
          expectOnlyContractCalls();
        }),
        { numRuns: NUM_RUNS },
      );
    });

    it('GET / + any well-formed path never answers 500 and never calls outside the 21', async () => {
      await fc.assert(
        fc.asyncProperty(anyText, fc.option(fc.webQueryParameters(), { nil: undefined }), async (s, q) => {
          const target = '/' + wellFormedPath(s) + (q === undefined ? '' : `?${q}`);
          const res = await get(target);
          const what = `${target} -> ${res.status} ${res.text.slice(0, 120)}`;
          expect([200, 301, 302, 303, 307, 308, 400, 404], what).toContain(res.status);
          if (res.status >= 300 && res.status < 400) {
            // Never a redirect to another host (//host, /\host or a scheme).
            expect(res.headers.location ?? '', what).toMatch(/^\/(?![/\\])/);
          }
          expect(res.text, what).not.toContain(EVIL);
          expectOnlyContractCalls();
        }),
        { numRuns: 100 },
      );
    });
  });

  describe('routerSafe: what the router is given', () => {
    it('escapes an encoded tab or newline in the path once more, and leaves the query and other paths alone', () => {
      expect(routerSafe('/%09/')).toBe('/%2509/');
      expect(routerSafe('/a/%0A%0d?x=%09')).toBe('/a/%250A%250d?x=%09');
      expect(routerSafe('/zjxz/detail?id=1&q=%09')).toBe('/zjxz/detail?id=1&q=%09');
      expect(routerSafe('/%E4%B8%AD')).toBe('/%E4%B8%AD');
    });
  });

  describe('pages: malformed percent-encoding and odd request targets', () => {
    it.each([
      ['/%E4%B8%AD'],
      ['/%00'],
      ['/a%00b'],
      ['/lxwm/index?x=%ff'],
      ['/lxwm/index?%zz=1'],
      ['/%09/'],
      ['/%09%0A/'],
      ['/%0d/'],
      ['/x/%09/'],
    ])('%s answers 200 or 404 HTML, not 500', async (target) => {
      const res = await get(target);
      expect([200, 404]).toContain(res.status);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    });

    it.each([['/%2e%2e/%2e%2e/etc/passwd'], ['/..%2f..%2fetc%2fpasswd'], ['/..\\..\\etc'], ['/lxwm/./index']])(
      '%s (a dot segment) is a 400: the bad-address page for a browser, the JSON error for another client',
      async (target) => {
        const page = await get(target, [['accept', 'text/html,application/xhtml+xml,*/*;q=0.8']]);
        expect(page.status).toBe(400);
        expect(page.text).toContain('网址有误');
        expectJsonError(await get(target), [400], /dot segment/);
      },
    );

    it.each([['/%ff'], ['/%zz'], ['/%'], ['/%c0%ae%c0%ae/'], ['/lxwm/%E4%B8'], ['/zjxz/detail%ff?id=1']])(
      '%s (malformed percent-encoding in a page path) is a 400 or 404, never 500',
      async (target) => {
        const res = await get(target);
        expect([400, 404], `${res.status} ${res.text.slice(0, 100)}`).toContain(res.status);
      },
    );

    it('a browser asking for an undecodable page address gets a readable 400 page; an API client, the JSON error', async () => {
      const page = await get('/zjxz/detail%ff?id=1', [['accept', 'text/html,application/xhtml+xml,*/*;q=0.8']]);
      expect(page.status).toBe(400);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('网址有误');
      expect(page.text).toContain('<a href="/">返回首页</a>');
      expect(page.text).not.toMatch(/<script/i);
      const json = await get('/zjxz/detail%ff?id=1', [['accept', '*/*']]);
      expect(json.status).toBe(400);
      expect(JSON.parse(json.text).error.code).toBe('bad_request');
    });

    describe('absolute-form request targets (RFC 9112 section 3.2.2: a server MUST accept them)', () => {
      let defaultOrigin: RunningService;
      beforeAll(async () => {
        defaultOrigin = await startService({ UPSTREAM_URL: upstream.url }, { clientDir: CLIENT_DIR });
      });
      afterAll(() => defaultOrigin?.close());
      const targets = [[`http://${EVIL}/lxwm/index`], [`http://${EVIL}/api/banner`], ['http://127.0.0.1/lxwm/index']];

      it.each(targets)('with PUBLIC_ORIGIN set, %s is served or refused, never 500', async (target) => {
        const res = await get(target, [['host', EVIL]]);
        expect([200, 400, 404], `${res.status} ${res.text.slice(0, 100)}`).toContain(res.status);
        expect(res.text).not.toContain(EVIL);
        expectOnlyContractCalls();
      });

      it.each(targets)('with the default origin, %s is served or refused, never 500', async (target) => {
        const res = await rawRequest(defaultOrigin.url, target, { headers: [['host', EVIL]] });
        expect([200, 400, 404], `${res.status} ${res.text.slice(0, 100)}`).toContain(res.status);
        expect(res.text).not.toContain(EVIL);
      });
    });
  });

  describe('cache poisoning', () => {
    let reference: RunningService;
    beforeAll(async () => {
      reference = await startService({ UPSTREAM_URL: upstream.url, PUBLIC_ORIGIN: ORIGIN }, { clientDir: CLIENT_DIR });
    });
    afterAll(() => reference?.close());

    const ODD_HEADERS: [string, string][][] = [
      [['host', EVIL]],
      [
        ['host', `${EVIL}:443`],
        ['x-forwarded-host', EVIL],
        ['x-forwarded-proto', 'https'],
        ['x-forwarded-port', '443'],
        ['forwarded', `host=${EVIL};proto=https`],
      ],
      [
        ['x-forwarded-proto', 'gopher'],
        ['x-forwarded-prefix', '/evil'],
        ['x-forwarded-for', '203.0.113.9'],
      ],
      [
        ['x-original-url', `/api/news/${newsItemId}`],
        ['x-rewrite-url', `/api/experts/${expertId}`],
      ],
      [
        ['x-original-url', '/admin'],
        ['x-http-method-override', 'DELETE'],
        ['x-method-override', 'PURGE'],
      ],
      [['accept-encoding', 'gzip']],
      [['accept-encoding', 'br']],
      [['accept-encoding', 'deflate']],
      [['accept-encoding', '*']],
      [['accept-encoding', 'identity;q=0, *;q=0']],
      [['accept-encoding', 'gzip;q=0, br;q=0']],
      [['accept-encoding', 'x'.repeat(2_000)]],
      [
        ['accept', 'text/html'],
        ['accept-language', 'en'],
        ['cookie', 'session=evil'],
        ['authorization', 'Bearer evil'],
      ],
      [
        ['cache-control', 'no-cache'],
        ['pragma', 'no-cache'],
        ['if-none-match', '*'],
        ['range', 'bytes=0-10'],
      ],
      [
        ['if-modified-since', 'Thu, 01 Jan 1970 00:00:00 GMT'],
        ['if-none-match', 'W/"evil"'],
      ],
    ];
    const URLS = [
      '/api/banner',
      '/api/contact-us',
      `/api/experts/${expertId}`,
      '/api/news?categoryId=19&page=1&pageSize=5',
      `/api/news/${newsItemId}`,
      '/api/nope',
    ];

    it('odd request headers never change the body (or encoding) that later clients get for the same URL', async () => {
      for (const url of URLS) {
        const key = url === '/api/nope' ? undefined : url;
        for (const headers of ODD_HEADERS) {
          upstream.calls.clear();
          const poisoned = await get(url, headers);
          const what = `${url} with ${JSON.stringify(headers)}`;
          expect(poisoned.status, what).not.toBe(500);
          // X-Original-URL, X-Rewrite-URL and the like are ignored: only the request's own path is asked for.
          for (const called of upstream.calls.keys()) expect(called, what).toBe(key);

          const wanted = await rawRequest(reference.url, url);
          const plain = await get(url);
          expect(plain.status, what).toBe(wanted.status);
          expect(plain.headers['content-encoding'], what).toBeUndefined();
          expect(plain.text, what).toBe(wanted.text);
          const gz = await get(url, [['accept-encoding', 'gzip']]);
          const body = gz.headers['content-encoding'] === 'gzip' ? gunzipSync(gz.body).toString('utf8') : gz.text;
          expect(body, what).toBe(wanted.text);
          if (wanted.status === 200) expect(gz.headers.vary, what).toMatch(/Accept-Encoding/i);
        }
      }
    });

    it('odd request headers on pages never change what later visitors get', async () => {
      for (const route of ['/', '/lxwm/index', `/zjxz/detail?id=${expertId}`, '/no/such/page']) {
        for (const headers of ODD_HEADERS) {
          const poisoned = await get(route, headers);
          expect(poisoned.status, route).not.toBe(500);
          expect(poisoned.text, `${route} ${JSON.stringify(headers)}`).not.toContain(EVIL);
        }
        const wanted = await rawRequest(reference.url, route);
        const plain = await get(route);
        expect(plain.status).toBe(wanted.status);
        expect(plain.text).toBe(wanted.text);
      }
    });
    describe('pages: the first request for a URL never decides what later visitors get', () => {
      const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
      const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
      const sameAsReference = async (url: string, what: string) => {
        const wanted = await rawRequest(reference.url, url);
        const plain = await get(url);
        expect(wanted.status, what).toBe(200);
        expect(plain.status, what).toBe(200);
        expect(plain.headers['content-encoding'], what).toBeUndefined();
        expect(plain.text, what).toBe(wanted.text);
        // The whole document: it ends with the hydration data.
        expect(
          /<script type="application\/json" id="__router-data">[^<]*<\/script>\s*(<\/body>\s*<\/html>)?\s*$/.test(plain.text),
          what,
        ).toBe(true);
      };

      it('a HEAD first: later GETs get the whole page', async () => {
        const url = '/jtjj/fzlc?first=head';
        const head = await rawRequest(svc.url, url, { method: 'HEAD' });
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        await sameAsReference(url, 'after HEAD');
      });

      it('a Firefox visitor first: Chrome and UA-less visitors still get zoom, and the other way round', async () => {
        const url = '/jtjj/ryjx?first=firefox';
        const scale = async (ua?: string) =>
          /data-scale="(\w+)"/.exec((await get(url, ua === undefined ? [] : [['user-agent', ua]])).text)?.[1];
        expect(await scale(FIREFOX_UA)).toBe('transform');
        expect(await scale()).toBe('zoom');
        expect(await scale(CHROME_UA)).toBe('zoom');
        expect(await scale(FIREFOX_UA)).toBe('transform');
        const url2 = '/jtjj/ryjx?first=chrome';
        expect(/data-scale="(\w+)"/.exec((await get(url2, [['user-agent', CHROME_UA]])).text)?.[1]).toBe('zoom');
        expect(/data-scale="(\w+)"/.exec((await get(url2, [['user-agent', FIREFOX_UA]])).text)?.[1]).toBe('transform');
      });

      it('a gzip or brotli client first: an identity client gets plain HTML, a br client decodable br', async () => {
        for (const [url, first] of [
          ['/jtjj/qyhcp?first=gzip', 'gzip'],
          ['/hzhf/kpzs?first=br', 'br'],
        ] as const) {
          const compressed = await get(url, [['accept-encoding', first]]);
          expect(compressed.status).toBe(200);
          await sameAsReference(url, `after ${first}`);
          const wanted = await rawRequest(reference.url, url);
          const br = await get(url, [['accept-encoding', 'br']]);
          const text = br.headers['content-encoding'] === 'br' ? brotliDecompressSync(br.body).toString('utf8') : br.text;
          expect(text).toBe(wanted.text);
          const gz = await get(url, [['accept-encoding', 'gzip']]);
          expect(gz.headers['content-encoding'] === 'gzip' ? gunzipSync(gz.body).toString('utf8') : gz.text).toBe(wanted.text);
          expect(gz.headers.vary ?? '').toMatch(/Accept-Encoding/i);
        }
      });

      it('a conditional or ranged request first: later GETs get the whole page', async () => {
        const url = '/hzhf/zlsb?first=conditional';
        const first = await get(url, [
          ['if-none-match', '*'],
          ['range', 'bytes=0-10'],
          ['if-modified-since', 'Thu, 01 Jan 2099 00:00:00 GMT'],
        ]);
        expect([200, 206, 304]).toContain(first.status);
        await sameAsReference(url, 'after a conditional request');
      });

      it('a visitor who leaves mid-render first: later GETs get the whole page', async () => {
        // A page no other case here asks for (else the page cache answers it), reading nothing of the
        // search index (whose first build may end between the two renders compared).
        const url = '/jtjj/qywh?first=aborted';
        const { hostname, port } = new URL(svc.url);
        // The visitor leaves the moment its page's render begins: the render is then surely under way.
        let left = false;
        let rendered = false;
        const socket = connect(Number(port), hostname);
        const ours = (message: unknown) => (message as RenderEvent).res.req.url === url;
        const leave = (message: unknown) => {
          if (!ours(message) || left) return;
          left = true;
          socket.destroy();
        };
        const ended = (message: unknown) => {
          if (ours(message)) rendered = true;
        };
        renderChannel.start.subscribe(leave);
        renderChannel.asyncEnd.subscribe(ended);
        try {
          socket.on('error', () => {});
          socket.write(`GET ${url} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
          // The render the visitor left has ended, and the service logged the request as aborted.
          await vi.waitFor(
            () => {
              expect(rendered).toBe(true);
              expect(svc.logs).toContainEqual(expect.objectContaining({ msg: 'request aborted', url, status: 'aborted' }));
            },
            { timeout: 5_000, message: 'the end of the render the visitor left' },
          );
        } finally {
          renderChannel.start.unsubscribe(leave);
          renderChannel.asyncEnd.unsubscribe(ended);
          socket.destroy();
        }
        expect(left).toBe(true);
        await sameAsReference(url, 'after an aborted request');
      });
    });
  });

  describe('request headers on pages', () => {
    /** Every URL-bearing attribute value in the HTML. */
    const urlsIn = (html: string) => [...html.matchAll(/\s(?:href|src|action|content|srcset|poster|data)="([^"]*)"/g)].map((m) => m[1]!);
    /** The origins of the external addresses the content carries (map links, the filings' registries). */
    const CONTENT_ORIGINS = new Set(
      [...JSON.stringify(demoContent).matchAll(/https?:\/\/[^\s"'\\/?#]+/g)].map((m) => new URL(m[0]).origin),
    );
    /** An attribute's value as a browser reads it: entities, then percent-escapes, decoded. */
    const readUrl = (url: string) => {
      const unescaped = url
        .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
        .replace(/&#x([\da-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
        .replaceAll('&amp;', '&');
      try {
        return decodeURIComponent(unescaped);
      } catch {
        return unescaped;
      }
    };

    it('no User-Agent at all: 200 with data-scale="zoom"', async () => {
      const res = await get('/lxwm/index');
      expect(res.status).toBe(200);
      expect(res.text).toContain('<html lang="zh-CN" data-scale="zoom">');
    });

    it.each([
      ['an 8 KB User-Agent', 'x'.repeat(8_192)],
      ['an 8 KB Firefox-ish User-Agent', `Mozilla/5.0 (${'Gecko/ Firefox/ '.repeat(500)})`.slice(0, 8_192)],
      ['an empty User-Agent', ''],
      ['a User-Agent of symbols', '"><script>alert(1)</script>{}[]%00%ff'],
    ])('%s: 200 with data-scale="zoom"', async (_name, ua) => {
      const res = await get('/lxwm/index', [['user-agent', ua]]);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<html lang="zh-CN" data-scale="zoom">');
      expect(res.text).not.toContain('<script>alert(1)');
    });

    it.each(PAGE_ROUTES.filter((r) => !('needsId' in r)).map((r) => [r.path]))(
      '%s: forged Host and X-Forwarded-* reach no URL in the HTML',
      async (path) => {
        const res = await get(path, [
          ['host', EVIL],
          ['x-forwarded-host', EVIL],
          ['x-forwarded-proto', 'gopher'],
          ['x-forwarded-prefix', `//${EVIL}`],
          ['forwarded', `host=${EVIL};proto=http`],
          ['x-original-url', `//${EVIL}/`],
          ['x-rewrite-url', `//${EVIL}/`],
        ]);
        expect(res.status).toBe(200);
        expect(res.text).not.toContain(EVIL);
        expect(res.text).not.toContain('gopher');
        const canonical = /<link rel="canonical" href="([^"]+)">/.exec(res.text)?.[1];
        // The route's own address: a category's page names its category, as the site's links do.
        expect(canonical).toBe(`${ORIGIN}${canonicalHref(path, new URLSearchParams())!.replaceAll('&', '&#38;')}`);
        const urls = urlsIn(res.text);
        for (const url of urls) {
          // The forged host is in none, however it is written.
          const read = readUrl(url);
          expect(read.toLowerCase(), url).not.toContain(EVIL);
          if (!/^[a-z][a-z0-9+.-]*:/i.test(read) && !read.startsWith('//')) continue;
          // A phone, a mail address or a place's coordinates (geo:) name no host.
          if (/^(tel|mailto|geo):/.test(read)) continue;
          // An absolute URL is the site's own (PUBLIC_ORIGIN), or one the content itself links to.
          const origin = new URL(read, ORIGIN).origin;
          expect(origin === ORIGIN || (CONTENT_ORIGINS.has(origin) && !origin.includes(EVIL)), url).toBe(true);
        }
        // And the headers change no URL at all: the same ones as without them.
        expect(urls).toEqual(urlsIn((await get(path)).text));
      },
    );

    it('a body on GET is ignored: the same answer with and without it (API and pages)', async () => {
      for (const target of ['/api/contact-us', '/api/news?page=1', '/lxwm/index', `/zjxz/detail?id=${expertId}`]) {
        const without = await get(target);
        for (const chunked of [false, true]) {
          const withBody = await rawRequest(svc.url, target, {
            headers: [['content-type', 'application/json']],
            body: '{"page":2,"id":999,"__proto__":{"x":1},"url":"/api/../etc/passwd"}',
            chunked,
          });
          expect(withBody.status, target).toBe(without.status);
          expect(withBody.text, target).toBe(without.text);
        }
      }
      expectOnlyContractCalls();
    });
  });

  describe('methods', () => {
    const targets = [
      '/api/banner',
      `/api/news/${newsItemId}`,
      '/api/news?page=1',
      '/api/nope',
      '/api/news/abc',
      '/',
      '/lxwm/index',
      `/zjxz/detail?id=${expertId}`,
      '/no/such/page',
    ];
    const methods = ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'PURGE', 'SEARCH'];

    it.each(methods)('%s on /api and on pages is a 405 JSON with Allow: GET, HEAD, and reaches no upstream', async (method) => {
      for (const target of targets) {
        for (const body of [undefined, '{"a":1}']) {
          const res = await rawRequest(svc.url, target, { method, body, headers: body ? [['content-type', 'application/json']] : [] });
          expectJsonError(res, [405], new RegExp(`^${method} is not allowed`));
          expect(res.headers.allow, `${method} ${target}`).toBe('GET, HEAD');
        }
      }
      expect(upstream.totalCalls()).toBe(0);
    });

    it('HEAD is allowed on /api and on pages, without a body', async () => {
      for (const target of ['/api/banner', '/lxwm/index']) {
        const res = await rawRequest(svc.url, target, { method: 'HEAD' });
        expect(res.status, target).toBe(200);
        expect(res.body.length, target).toBe(0);
      }
      const api = await request(svc.url).head('/api/nope').expect(404);
      expect(api.headers['content-type']).toMatch(/^application\/json/);
    });
  });
});
