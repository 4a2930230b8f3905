/**
 * Every cacheable answer carries its validator, and its 304 the same Vary as its 200 (RFC 9110
 * section 15.4.5): a page rendered on a miss, a page from the page cache, a page rendered with no
 * page cache, an API answer, a media file.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from './support/start-service.js';

let cached: RunningService;
let uncached: RunningService;

beforeAll(async () => {
  cached = await startService({}, { clientDir: 'dist/client' });
  uncached = await startService({ PAGE_CACHE_MAX_BYTES: '0' }, { clientDir: 'dist/client' });
});
afterAll(async () => {
  await Promise.all([cached?.close(), uncached?.close()]);
});

/** (undici's request, not fetch: fetch adds `Cache-Control: no-cache` to a conditional request.) */
async function get(url: string, headers: Record<string, string>) {
  const res = await request(url, { headers });
  await res.body.dump();
  const header = (name: string) => (res.headers[name] as string | undefined) ?? null;
  return { status: res.statusCode, header };
}

async function revalidate(base: string, path: string, expectCache?: string) {
  const first = await get(base + path, { 'accept-encoding': 'br' });
  expect(first.status, path).toBe(200);
  if (expectCache) expect(first.header('x-cache'), path).toBe(expectCache);
  const etag = first.header('etag');
  expect(etag, `${path}: a validator on the 200`).toMatch(/^(W\/)?"[^"]+"$/);
  const again = await get(base + path, { 'accept-encoding': 'br', 'if-none-match': etag! });
  expect(again.status, path).toBe(304);
  expect(again.header('vary'), `${path}: the 304's Vary`).toBe(first.header('vary'));
  expect(again.header('etag'), path).toBe(etag);
  return first;
}

describe('validators and Vary on 200 and 304', () => {
  it('a page rendered on a miss is streamed with its ETag; from the page cache, the same one', async () => {
    const miss = await revalidate(cached.url, '/lxwm/index', 'MISS');
    const hit = await get(`${cached.url}/lxwm/index`, { 'accept-encoding': 'br' });
    expect(hit.header('x-cache')).toBe('HIT');
    expect(hit.header('etag')).toBe(miss.header('etag'));
    expect(miss.header('vary')).toBe('Accept-Encoding, User-Agent, Cookie');
    // What it was drawn from, for purges; how long an edge may keep it.
    expect(miss.header('cache-tag')?.split(', ')).toEqual(
      expect.arrayContaining(['all', 'url:/lxwm/index', '/api/contact-us', 'url:/api/contact-us']),
    );
    expect(miss.header('cache-control')).toMatch(/^public, max-age=0, s-maxage=[1-9]\d*, stale-while-revalidate=60, stale-if-error=86400$/);
  });

  it('a page rendered with no page cache', async () => {
    await revalidate(uncached.url, '/zjxz/index', 'MISS');
  });

  it('an API answer', async () => {
    const res = await revalidate(cached.url, '/api/award-honors');
    expect(res.header('vary')).toBe('Accept-Encoding');
  });

  it('a media file', async () => {
    const res = await revalidate(cached.url, '/media/brand/logo.svg');
    expect(res.header('vary')).toBe('Accept-Encoding');
  });
});

describe('a conditional request, read as Express and send read it (jshttp’s fresh)', () => {
  const conditional = async (path: string, headers: Record<string, string>) => (await get(cached.url + path, headers)).status;

  it.each(['/api/award-honors', '/lxwm/index'])('%s: its tag compared weakly, in a list or as *', async (path) => {
    const etag = (await get(cached.url + path, {})).header('etag')!;
    expect(etag).toMatch(/^W\/"/);
    expect(await conditional(path, { 'if-none-match': etag.slice(2) })).toBe(304);
    expect(await conditional(path, { 'if-none-match': `"other", ${etag}` })).toBe(304);
    expect(await conditional(path, { 'if-none-match': '*' })).toBe(304);
    expect(await conditional(path, { 'if-none-match': 'W/"other"' })).toBe(200);
  });

  it.each(['/api/award-honors', '/lxwm/index'])(
    '%s: a conditional request that says Cache-Control: no-cache still gets its 304',
    async (path) => {
      // fetch() adds it to every conditional request a script makes; fresh alone would answer the whole body.
      const etag = (await get(cached.url + path, {})).header('etag')!;
      expect(await conditional(path, { 'if-none-match': etag, 'cache-control': 'no-cache' })).toBe(304);
      const fetched = await fetch(cached.url + path, { headers: { 'if-none-match': etag } });
      expect(fetched.status).toBe(304);
    },
  );

  it('If-Modified-Since alone is no match for an answer that names no Last-Modified', async () => {
    expect(await conditional('/api/award-honors', { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() })).toBe(200);
  });
});
