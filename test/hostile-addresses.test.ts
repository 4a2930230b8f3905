/**
 * What a scanner sends all day costs almost nothing and keeps nothing (docs/decisions/032): a
 * target past MAX_URL_BYTES is refused 414 before anything reads it; every address that is no
 * route gets the one not-found page of its variant, drawn once and kept, naming no address a
 * client chose; and ten thousand distinct long addresses leave the process's memory where it was,
 * since every memo keyed by a target is bounded in bytes.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { matchRoutes } from 'react-router';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../shared/site/route-table.js';
import { routerTakes } from '../server/render/page-key.js';
import { routerSafe } from '../shared/router-safe.js';
import { startService, type RunningService } from './support/start-service.js';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

let svc: RunningService;
beforeAll(async () => {
  // Errors only: the test's log collector keeps every line it is given, and scanners' 404s are warnings.
  svc = await startService({ LOG_LEVEL: 'error' });
});
afterAll(() => svc?.close());

/** `n` characters of letters and digits, different each time. */
const junk = (n: number) => {
  let s = '';
  while (s.length < n) s += Math.random().toString(36).slice(2);
  return s.slice(0, n);
};

describe('a request target past MAX_URL_BYTES', () => {
  it.each([
    ['a page', '/?q='],
    ['an unknown address', '/'],
    ['the API', '/api/news?x='],
    ['the media endpoint', '/_media/640/0/'],
  ])('to %s is answered 414 at the front door; one of exactly the limit is read', async (_what, prefix) => {
    const over = await fetch(svc.url + prefix + 'a'.repeat(8_193 - prefix.length));
    expect(over.status).toBe(414);
    expect(await over.json()).toEqual({ error: { code: 'uri_too_long', message: 'the request target is longer than 8192 bytes' } });
    const at = await fetch(svc.url + prefix + 'a'.repeat(8_192 - prefix.length));
    expect(at.status).not.toBe(414);
    await at.body?.cancel();
  });
});

describe('an address that is no route', () => {
  it('gets the one not-found page of its variant, drawn once, 404, naming no address a client chose', async () => {
    const hostile = `/${junk(12)}/"><script>alert(1)</script>`;
    const first = await fetch(svc.url + hostile, { headers: { 'user-agent': FIREFOX } });
    expect(first.status).toBe(404);
    const html = await first.text();
    expect(html).toContain('<title>页面未找到</title>');
    expect(html).not.toContain('alert');
    // Another address, the same page from the cache: the same bytes.
    const again = await fetch(`${svc.url}/wp-login.php?x=${junk(20)}`, { headers: { 'user-agent': FIREFOX } });
    expect([again.status, again.headers.get('x-cache')]).toEqual([404, 'HIT']);
    expect(await again.text()).toBe(html);
    // Each variant its own: a browser that scales by zoom, and the large-text mode.
    const zoom = await fetch(`${svc.url}/${junk(12)}`, { headers: { 'user-agent': CHROME } });
    expect(await zoom.text()).toContain('data-scale="zoom"');
    const large = await fetch(`${svc.url}/${junk(12)}`, { headers: { 'user-agent': FIREFOX, cookie: 'textsize=large' } });
    expect(await large.text()).toContain('data-text="large"');
    // The app's own routes that are not pages are theirs, never the not-found page.
    expect((await fetch(`${svc.url}/robots.txt`)).status).toBe(200);
    expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
  });
});

describe('what React Router takes for a route', () => {
  it('is decided without asking it to rank its routes, and as it decides', () => {
    // The one expression holds only while every route is a plain path, with no parameter in it.
    for (const route of Object.values(ROUTES)) expect(route.path).toMatch(/^\/[\w/-]*$/);
    const routes = [{ path: '/', children: Object.values(ROUTES).map((r) => (r.path === '/' ? { index: true } : { path: r.path })) }];
    const addresses = [
      ...['/', '//', '/jtjj/qywh', '/JTJJ/QYWH', '/jtjj/qywh/', '/jtjj/qywh//', '/jtjj//qywh', '/%6Atjj/qywh', '/jtjj%2Fqywh'],
      ...['/jtjj/qywh.', '/jtjj/./qywh', '/jtjj/../jtjj/qywh', '/jtjj/qywh?x=1', '/jtjj\\qywh', '/no/such', '/%09/', '/jtjj/qywh%20'],
      ...['/ＪＴＪＪ/qywh', '/news/index', '/news/index/x', '/news%2Findex', '/zjxz/detail?id=1', '/Zjxz/Detail/'],
    ];
    for (const address of addresses) {
      expect(routerTakes(address), address).toBe(matchRoutes(routes, new URL(`http://site${routerSafe(address)}`).pathname) !== null);
    }
    // One React Router warns of as it lets it through: nothing it knows.
    expect(routerTakes('/%zz')).toBe(false);
  });
});

/** A full garbage collection, from inside the test's own process (where the service runs). */
function collect(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('ten thousand distinct 7 KB addresses', () => {
  it('leave the process’s heap within a few MiB of where it started', { timeout: 240_000 }, async () => {
    const gc = collect();
    const pool = new Pool(svc.url, { connections: 16 });
    const kinds = [
      () => `/?utm_source=${junk(7_000)}`,
      () => `/${junk(7_000)}`,
      () => `/zjxz/index?ref=${junk(7_000)}`,
      () => `/api/news?x=${junk(7_000)}`,
      () => `/_media/640/0/${junk(7_000)}`,
    ];
    const send = async (count: number) => {
      let next = 0;
      const statuses = new Set<number>();
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < count) {
            const path = kinds[next++ % kinds.length]!();
            expect(path.length).toBeGreaterThan(7_000);
            const res = await pool.request({ path, method: 'GET', headers: { 'user-agent': CHROME, 'accept-encoding': 'br' } });
            statuses.add(res.statusCode);
            await res.body.dump();
          }
        }),
      );
      return statuses;
    };
    try {
      // Everything each kind of answer needs is made and kept first (the pages, the code's warm-up).
      await send(500);
      gc();
      gc();
      const before = process.memoryUsage().heapUsed;
      const statuses = await send(10_000);
      gc();
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      // Served, not refused: pages, the not-found page, and the API's and media's 400s.
      expect([...statuses].sort()).toEqual([200, 400, 404]);
      expect(grown / 2 ** 20).toBeLessThan(4);
    } finally {
      await pool.close();
    }
  });
});
