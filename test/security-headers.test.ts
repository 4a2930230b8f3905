/**
 * The security headers on every kind of answer the service gives: pages (200, 404, 405), media
 * and missing assets, health, metrics, robots and sitemap carry the pages' set, exactly; the
 * API's JSON (200, HIT, 304, 400, 404, 405, preflight, the OpenAPI document) carries only what
 * means something for JSON, and CORS (docs/decisions/024). The CSP's one script hash is checked
 * against the inline script of the HTML actually served; /metrics is checked with METRICS_TOKEN set.
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { APP_MODULES_META } from '../shared/site/head-script.js';
import { DOCUMENT_ONLY_HEADERS, securityHeaders } from '../server/http/security-headers.js';
import { meta } from './support/page-head.js';
import { rawRequest } from './support/raw-http.js';
import { startService, type RunningService } from './support/start-service.js';

const CLIENT_DIR = 'dist/client';
const TOKEN = 'metrics-token-0123456789abcdef';
const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const expertId = demoContent.experts[0]!.id;
const articleId = demoContent.contentItems.find((i) => i.categoryId === 6)!.id;
const HASH = /^'sha256-[A-Za-z0-9+/]{43}='$/;

type Headers = Record<string, string | string[] | undefined>;

/** The CSP as directive name -> source list. */
function directives(csp: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

/** Every inline script that a browser would run (no src, no data type). */
function executableInlineScripts(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1]!;
    if (/\ssrc\s*=/i.test(attrs)) continue;
    const type = /\stype\s*=\s*"([^"]*)"/i.exec(attrs)?.[1]?.toLowerCase();
    if (type !== undefined && type !== '' && type !== 'module' && !/javascript|ecmascript/.test(type)) continue;
    out.push(m[2]!);
  }
  return out;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function expectSecurityHeaders(headers: Headers, what: string): void {
  const csp = headers['content-security-policy'];
  expect(typeof csp, `${what}: Content-Security-Policy`).toBe('string');
  const d = directives(csp as string);
  const script = d.get('script-src');
  expect(script, `${what}: script-src`).toBeDefined();
  expect(script!.length, `${what}: script-src is 'self' and one hash: ${script!.join(' ')}`).toBe(2);
  expect(script![0], what).toBe("'self'");
  expect(script![1], what).toMatch(HASH);
  for (const list of [script!, d.get('default-src') ?? []]) {
    for (const unsafe of [
      "'unsafe-inline'",
      "'unsafe-eval'",
      "'unsafe-hashes'",
      "'strict-dynamic'",
      '*',
      'data:',
      'http:',
      'https:',
      'blob:',
    ]) {
      expect(list, `${what}: ${unsafe}`).not.toContain(unsafe);
    }
  }
  if (d.has('script-src-attr')) expect(d.get('script-src-attr'), what).toEqual(["'none'"]);
  if (d.has('script-src-elem')) expect(d.get('script-src-elem'), what).toEqual(script);
  expect(d.get('default-src'), `${what}: default-src`).toEqual(["'self'"]);
  expect(d.get('object-src'), `${what}: object-src`).toEqual(["'none'"]);
  expect(d.get('frame-ancestors'), `${what}: frame-ancestors`).toEqual(["'none'"]);
  expect(d.get('base-uri'), `${what}: base-uri`).toEqual(["'self'"]);

  const hsts = String(headers['strict-transport-security'] ?? '');
  expect(hsts, `${what}: Strict-Transport-Security`).toMatch(/^max-age=\d+/);
  // At least 180 days, the usual floor (and the one of the HSTS preload list).
  expect(Number(/max-age=(\d+)/.exec(hsts)?.[1]), `${what}: HSTS max-age`).toBeGreaterThanOrEqual(15_552_000);
  expect(headers['x-content-type-options'], `${what}: X-Content-Type-Options`).toBe('nosniff');
  expect(headers['referrer-policy'], `${what}: Referrer-Policy`).toBe('strict-origin-when-cross-origin');
  expect(String(headers['x-frame-options'] ?? ''), `${what}: X-Frame-Options`).toMatch(/^(DENY|SAMEORIGIN)$/i);
  expect(headers['x-powered-by'], `${what}: X-Powered-By`).toBeUndefined();
}

describe('security headers', () => {
  let svc: RunningService;
  let pageHtml: string;
  let assetUrls: string[];
  beforeAll(async () => {
    svc = await startService({ METRICS_TOKEN: TOKEN }, { clientDir: CLIENT_DIR });
    pageHtml = (await request(svc.url).get('/').expect(200)).text;
    assetUrls = meta(pageHtml, APP_MODULES_META)!.split(' ');
  });
  afterAll(() => svc?.close());

  type Case = [string, (url: string) => Promise<{ status: number; headers: Headers }>, number];

  const CASES: Case[] = [
    ['page /', (u) => request(u).get('/'), 200],
    ['page /lxwm/index (gzip)', (u) => request(u).get('/lxwm/index').set('accept-encoding', 'gzip'), 200],
    ['page expert detail', (u) => request(u).get(`/zjxz/detail?id=${expertId}`), 200],
    ['page for Firefox', (u) => request(u).get('/').set('user-agent', FIREFOX_UA), 200],
    ['page 404', (u) => request(u).get('/no/such/page'), 404],
    ['page HEAD', (u) => request(u).head('/lxwm/index'), 200],
    ['page POST (405)', (u) => request(u).post('/lxwm/index'), 405],
    ['logo SVG', (u) => request(u).get('/media/brand/logo.svg'), 200],
    ['missing media', (u) => request(u).get('/media/nope.svg'), 404],
    ['missing asset', (u) => request(u).get('/assets/nope.js'), 404],
    ['favicon redirect', (u) => request(u).get('/favicon.ico').redirects(0), 301],
    ['/healthz', (u) => request(u).get('/healthz'), 200],
    ['/readyz', (u) => request(u).get('/readyz'), 200],
    ['/metrics without token', (u) => request(u).get('/metrics'), 401],
    ['/metrics with token', (u) => request(u).get('/metrics').set('authorization', `Bearer ${TOKEN}`), 200],
    ['/robots.txt', (u) => request(u).get('/robots.txt'), 200],
    ['/sitemap.xml', (u) => request(u).get('/sitemap.xml'), 200],
  ];

  const API_CASES: Case[] = [
    ['API 200', (u) => request(u).get('/api/banner'), 200],
    ['API HIT, brotli', (u) => request(u).get('/api/banner').set('accept-encoding', 'br'), 200],
    [
      'API 304',
      async (u) => {
        const first = await request(u).get('/api/contact-us');
        return request(u).get('/api/contact-us').set('if-none-match', String(first.headers.etag));
      },
      304,
    ],
    ['API 400', (u) => request(u).get('/api/news/abc'), 400],
    ['API 404 (not one of the 21)', (u) => request(u).get('/api/nope'), 404],
    ['API 404 (upstream)', (u) => request(u).get('/api/news/999999'), 404],
    ['API 405', (u) => request(u).delete('/api/banner'), 405],
    ['API HEAD', (u) => request(u).head('/api/banner'), 200],
    ['OpenAPI document', (u) => request(u).get('/api/openapi.json'), 200],
    [
      'API preflight',
      (u) => request(u).options('/api/banner').set('origin', 'https://partner.example').set('access-control-request-method', 'GET'),
      204,
    ],
  ];

  it.each(CASES)('%s carries CSP, HSTS, nosniff, Referrer-Policy, X-Frame-Options and no X-Powered-By', async (name, send, status) => {
    const res = await send(svc.url);
    expect(res.status, name).toBe(status);
    expectSecurityHeaders(res.headers, name);
  });

  it.each(CASES)("%s carries exactly the pages' headers, and no CORS", async (name, send) => {
    const res = await send(svc.url);
    // The set the service makes for pages; its CSP's hash is checked below against the HTML.
    for (const [header, value] of Object.entries(securityHeaders(['sha256-x']))) {
      if (header !== 'content-security-policy') expect(res.headers[header], `${name}: ${header}`).toBe(value);
    }
    expect(res.headers['access-control-allow-origin'], name).toBeUndefined();
    expect(res.headers['cross-origin-resource-policy'], name).toBe('same-origin');
  });

  it.each(API_CASES)('%s carries HSTS, nosniff and CORS, and nothing that only a document heeds', async (name, send, status) => {
    const res = await send(svc.url);
    expect(res.status, name).toBe(status);
    expect(String(res.headers['strict-transport-security'] ?? ''), name).toMatch(/^max-age=\d+/);
    expect(res.headers['x-content-type-options'], name).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy'], name).toBe('cross-origin');
    expect(res.headers['access-control-allow-origin'], name).toBe('*');
    expect(res.headers['x-request-id'], name).toBeTruthy();
    for (const header of [...DOCUMENT_ONLY_HEADERS, 'referrer-policy', 'x-powered-by']) {
      expect(res.headers[header], `${name}: ${header}`).toBeUndefined();
    }
  });

  it('every page carries the same CSP (one hash, whatever the page or the user agent)', async () => {
    const seen = new Set<string>();
    for (const [, send] of CASES) seen.add(String((await send(svc.url)).headers['content-security-policy']));
    expect([...seen]).toHaveLength(1);
  });

  it.each([
    ['/', undefined],
    ['/lxwm/index', undefined],
    [`/zjxz/detail?id=${expertId}`, undefined],
    [`/hzhf/kpzsDetail?id=${articleId}`, undefined],
    ['/no/such/page', undefined],
    ['/', FIREFOX_UA],
    ['/jtjj/qywh', 'x'.repeat(4_000)],
  ] as const)('%s (UA %s): the CSP hash is the SHA-256 of the one inline script in the HTML', async (path, ua) => {
    const req = request(svc.url).get(path);
    if (ua) req.set('user-agent', ua);
    const res = await req;
    expect([200, 404]).toContain(res.status);
    const inline = executableInlineScripts(res.text);
    expect(inline, 'exactly one executable inline script').toHaveLength(1);
    expect(inline[0]!.length).toBeGreaterThan(0);
    const script = directives(String(res.headers['content-security-policy'])).get('script-src')!;
    expect(script.filter((s) => s.startsWith("'sha"))).toEqual([sha256(inline[0]!)]);
    // The hydration data is inert JSON; every other script is loaded from this origin.
    expect(res.text).toMatch(/<script type="application\/json" id="__router-data">/);
    for (const m of res.text.matchAll(/<script\b[^>]*\ssrc="([^"]+)"/g)) expect(m[1]).toMatch(/^\/assets\/[\w.-]+\.js$/);
  });

  it('fingerprinted assets are public, max-age=31536000, immutable', async () => {
    const js = assetUrls.filter((u) => u.endsWith('.js'));
    // Pages carry the CSS inline; the stylesheet is still served, for tools and old caches.
    const manifest = JSON.parse(readFileSync(`${CLIENT_DIR}/.vite/manifest.json`, 'utf8')) as Record<string, { file: string }>;
    const css = Object.values(manifest)
      .filter((c) => c.file.endsWith('.css'))
      .map((c) => `/${c.file}`);
    expect(js.length).toBeGreaterThanOrEqual(1);
    expect(css.length).toBeGreaterThanOrEqual(1);
    for (const url of [...js, ...css]) {
      expect(url).toMatch(/^\/assets\/[\w-]+-[\w-]{8}\.(js|css)$/);
      const res = await request(svc.url).get(url).expect(200);
      expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-type'], url).toMatch(url.endsWith('.js') ? /^(text|application)\/javascript/ : /^text\/css/);
      // A script or stylesheet is governed by its page's headers; its own carry what applies to it.
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['strict-transport-security'], url).toMatch(/^max-age=/);
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(res.headers['x-request-id'], url).toBeTruthy();
      for (const name of DOCUMENT_ONLY_HEADERS) expect(res.headers[name], `${url}: ${name}`).toBeUndefined();
    }
  });

  it('media are cached for a day and typed, SVG included', async () => {
    const res = await request(svc.url).get('/media/brand/logo.svg').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('errors are never cached by browsers or proxies', async () => {
    for (const path of ['/api/nope', '/api/news/abc', '/assets/nope.js', '/metrics']) {
      const res = await request(svc.url).get(path);
      expect(res.headers['cache-control'], path).toBe('no-store');
    }
  });

  describe('/metrics with METRICS_TOKEN', () => {
    const expectUnauthorized = (res: { status: number; headers: Headers; text: string; body: unknown }, what: string) => {
      expect(res.status, what).toBe(401);
      expect(res.headers['www-authenticate'], what).toMatch(/^Bearer/);
      expect(res.headers['content-type'], what).toMatch(/^application\/json/);
      expect((res.body as { error?: { code?: string } }).error?.code, what).toBe('unauthorized');
      expect(res.headers['cache-control'], what).toBe('no-store');
      expect(res.text, what).not.toMatch(/http_requests_total|process_cpu|# HELP/);
    };

    it('401 without the bearer token', async () => {
      expectUnauthorized(await request(svc.url).get('/metrics'), 'no header');
      expectUnauthorized(
        await request(svc.url)
          .head('/metrics')
          .then((r) => ({ ...r, body: { error: { code: 'unauthorized' } }, text: '' })),
        'HEAD',
      );
    });

    it.each([
      ['a wrong token of the same length', `Bearer ${'x'.repeat(TOKEN.length)}`],
      ['a wrong shorter token', 'Bearer short'],
      ['a longer token that starts with the right one', `Bearer ${TOKEN}x`],
      ['the right token cut short', `Bearer ${TOKEN.slice(0, -1)}`],
      ['an empty bearer', 'Bearer '],
      ['another scheme', `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}`],
      ['the token in another scheme', `Token ${TOKEN}`],
      ['the token in upper case', `Bearer ${TOKEN.toUpperCase()}`],
    ])('401 with %s', async (_name, header) => {
      expectUnauthorized(await request(svc.url).get('/metrics').set('authorization', header), header);
    });

    it('401 with the token in the query string or a cookie', async () => {
      expectUnauthorized(await request(svc.url).get(`/metrics?token=${TOKEN}`), 'query');
      expectUnauthorized(await request(svc.url).get('/metrics').set('cookie', `token=${TOKEN}`), 'cookie');
    });

    it('401 with the bare token and no Bearer scheme', async () => {
      expectUnauthorized(await request(svc.url).get('/metrics').set('authorization', TOKEN), 'bare token');
    });

    it('200 with the right bearer token, and Prometheus text', async () => {
      const res = await request(svc.url).get('/metrics').set('authorization', `Bearer ${TOKEN}`).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toMatch(/# HELP http_requests_total/);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('200 with the scheme in any case and several spaces (RFC 9110 section 11.1, RFC 6750)', async () => {
      await request(svc.url).get('/metrics').set('authorization', `bearer ${TOKEN}`).expect(200);
      await request(svc.url).get('/metrics').set('authorization', `Bearer   ${TOKEN}`).expect(200);
    });
  });

  it('no answer carries X-Powered-By, not even the ones Express or Node write themselves', async () => {
    const answers = [
      await rawRequest(svc.url, '*', { method: 'OPTIONS' }),
      await rawRequest(svc.url, '*'),
      await rawRequest(svc.url, '/%ff'),
      await rawRequest(svc.url, '/assets/x.js', { method: 'POST' }),
      await rawRequest(svc.url, '/media/../../package.json'),
      await rawRequest(svc.url, '/assets/%2e%2e/%2e%2e/package.json'),
    ];
    for (const res of answers) expect(res.headers['x-powered-by']).toBeUndefined();
    // Path traversal through the static routes never reaches files outside dist/client.
    for (const res of answers.slice(-2)) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.text).not.toContain('"devDependencies"');
    }
  });
});
