/** The rendered-page cache: hits ahead of Express, revalidation, and coherence with the data cache. */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { later } from './support/wall-clock.js';
import { useUpstreamFixture } from './support/upstream-fixture.js';

const FIREFOX_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

describe('page cache', () => {
  const fixture = useUpstreamFixture({ clientDir: 'dist/client' });
  const start = fixture.start;

  it('serves a rendered page again from the cache, with the same bytes and headers', async () => {
    const s = await start();
    const first = await request(s.url).get('/zjxz/index').expect(200);
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers['server-timing']).toMatch(/data;dur=[\d.]+/);
    const second = await request(s.url).get('/zjxz/index').expect(200);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.text).toBe(first.text);
    for (const h of ['content-type', 'cache-control', 'content-security-policy', 'vary']) {
      expect(second.headers[h], h).toBe(first.headers[h]);
    }
    const log = s.logs.filter((l) => l.msg === 'request' && l.url === '/zjxz/index');
    expect(log.map((l) => l.cache)).toEqual(['MISS', 'HIT']);
  });

  it('answers If-None-Match with 304 and compresses for clients that accept it', async () => {
    const s = await start();
    await request(s.url).get('/lxwm/index').expect(200);
    const hit = await request(s.url).get('/lxwm/index').set('accept-encoding', 'br').expect(200);
    expect(hit.headers['content-encoding']).toBe('br');
    const etag = hit.headers.etag!;
    expect(etag).toMatch(/^W\//);
    await request(s.url).get('/lxwm/index').set('if-none-match', etag).expect(304);
  });

  it('keeps one entry per scaling mode', async () => {
    const s = await start();
    await request(s.url).get('/lxwm/index').expect(200);
    const firefox = await request(s.url).get('/lxwm/index').set('user-agent', FIREFOX_UA).expect(200);
    expect(firefox.headers['x-cache']).toBe('MISS');
    expect(firefox.text).toContain('data-scale="transform"');
    const again = await request(s.url).get('/lxwm/index').set('user-agent', FIREFOX_UA).expect(200);
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.text).toContain('data-scale="transform"');
  });

  it('a page is never older than its data may be: it expires with the first answer it read', async () => {
    // Long enough that the first render (on a busy machine, a second or more) ends well within it.
    const s = await start({ CACHE_MAX_AGE_MS: '3000' });
    await request(s.url).get('/lxwm/index').expect(200);
    expect((await request(s.url).get('/lxwm/index')).headers['x-cache']).toBe('HIT');
    // Once the data's freshness (at most 3 s from its fetch) is over, the page is drawn again. The
    // moves go a little past each window: the faked clock otherwise stands still between its 20 ms
    // steps, and on a fast machine a move of exactly the window lands on its last fresh instant.
    later(3_050);
    expect((await request(s.url).get('/lxwm/index')).headers['x-cache']).toBe('MISS');
  });

  it('a page rendered from stale data is reused only briefly, then rendered again', async () => {
    const s = await start({ CACHE_MAX_AGE_MS: '300', CACHE_STALE_WHILE_REVALIDATE_S: '60' });
    await request(s.url).get('/jtjj/ryjx').expect(200);
    // The page's data (fetched before the answer above) is stale 300 ms after it.
    later(350);
    fixture.upstream.mode = 'status-500';
    const stale = await request(s.url).get('/jtjj/ryjx').expect(200);
    expect(stale.headers['x-cache']).toBe('MISS');
    // Spares the failing upstream for a moment (2 s)…
    expect((await request(s.url).get('/jtjj/ryjx')).headers['x-cache']).toBe('HIT');
    // …then the page is drawn again, from whatever the data cache has by then.
    later(2_050);
    expect((await request(s.url).get('/jtjj/ryjx')).headers['x-cache']).toBe('MISS');
  });

  it('error pages are not cached', async () => {
    const s = await start();
    await request(s.url).get('/zjxz/detail?id=999999').expect(404);
    const again = await request(s.url).get('/zjxz/detail?id=999999').expect(404);
    expect(again.headers['x-cache']).toBe('MISS');
  });

  it('can be switched off', async () => {
    const s = await start({ PAGE_CACHE_MAX_BYTES: '0' });
    await request(s.url).get('/lxwm/index').expect(200);
    expect((await request(s.url).get('/lxwm/index')).headers['x-cache']).toBe('MISS');
  });
});
