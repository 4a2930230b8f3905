/**
 * The variant of a page, decided on the server: the scaling mode from the User-Agent, the
 * large-text mode from its cookie (set by a plain link), or what a trusted edge says; cached and
 * varied apart, never one for another.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from './support/start-service.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
let svc: RunningService | undefined;
afterEach(() => svc?.close());

const htmlTag = (html: string) => /<html[^>]*>/.exec(html)?.[0] ?? '';

async function page(path: string, headers: Record<string, string>) {
  const res = await fetch(svc!.url + path, { headers });
  return { res, html: await res.text() };
}

describe('page variants', () => {
  it('the switch remembers the large-text mode in a cookie and goes back to the page, without JavaScript', async () => {
    svc = await startService({}, { clientDir: 'dist/client' });
    const on = await fetch(`${svc.url}/text-size?large=1&back=${encodeURIComponent('/lxwm/index?x=1')}`, { redirect: 'manual' });
    expect(on.status).toBe(303);
    expect(on.headers.get('location')).toBe('/lxwm/index?x=1');
    expect(on.headers.get('set-cookie')).toMatch(/^textsize=large; Path=\/; Max-Age=31536000; SameSite=Lax/);
    expect(on.headers.get('cache-control')).toBe('no-store');
    // 标准版 is remembered as well (it ends the tablet's prompt), and draws the standard page.
    const off = await fetch(`${svc.url}/text-size?large=0&back=/`, { redirect: 'manual' });
    expect(off.headers.get('set-cookie')).toMatch(/^textsize=standard; Path=\/; Max-Age=31536000; SameSite=Lax/);
    expect((await page('/', { cookie: 'textsize=standard' })).html).not.toContain('data-text="large"');
    for (const back of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const res = await fetch(`${svc.url}/text-size?large=1&back=${encodeURIComponent(back)}`, { redirect: 'manual' });
      expect(res.headers.get('location'), back).toBe('/');
    }
  });

  it('the large-text mode is drawn by the server, for any browser, and cached apart', async () => {
    svc = await startService({}, { clientDir: 'dist/client' });
    const large = await page('/', { 'user-agent': FIREFOX, cookie: 'a=b; textsize=large' });
    expect(htmlTag(large.html)).toBe('<html lang="zh-CN" data-scale="zoom" data-text="large">');
    expect(large.res.headers.get('vary')).toBe('Accept-Encoding, User-Agent, Cookie');
    const firefox = await page('/', { 'user-agent': FIREFOX });
    expect(htmlTag(firefox.html)).toBe('<html lang="zh-CN" data-scale="transform">');
    const chrome = await page('/', { 'user-agent': CHROME });
    expect(htmlTag(chrome.html)).toBe('<html lang="zh-CN" data-scale="zoom">');
    // Each variant from the page cache now, each its own.
    for (const [headers, tag] of [
      [{ 'user-agent': FIREFOX, cookie: 'textsize=large' }, large.html],
      [{ 'user-agent': FIREFOX }, firefox.html],
      [{ 'user-agent': CHROME }, chrome.html],
    ] as const) {
      const again = await page('/', headers);
      expect(again.res.headers.get('x-cache')).toBe('HIT');
      expect(htmlTag(again.html)).toBe(htmlTag(tag));
      expect(again.res.headers.get('etag')).not.toBe(null);
    }
    expect(chrome.res.headers.get('etag')).not.toBe(firefox.res.headers.get('etag'));
  });

  it("a trusted edge's variant is believed and varied on; anyone else's is ignored", async () => {
    svc = await startService({ TRUSTED_PROXIES: '127.0.0.1,::1' }, { clientDir: 'dist/client' });
    const edge = await page('/lxwm/index', { 'user-agent': CHROME, 'x-page-variant': 'transform' });
    expect(htmlTag(edge.html)).toContain('data-scale="transform"');
    expect(edge.res.headers.get('vary')).toBe('Accept-Encoding, x-page-variant');
    const bogus = await page('/lxwm/index', { 'user-agent': CHROME, 'x-page-variant': 'sideways' });
    expect(htmlTag(bogus.html)).toContain('data-scale="zoom"');
    await svc.close();

    svc = await startService({}, { clientDir: 'dist/client' });
    const forged = await page('/lxwm/index', { 'user-agent': CHROME, 'x-page-variant': 'large' });
    expect(htmlTag(forged.html)).toBe('<html lang="zh-CN" data-scale="zoom">');
    expect(forged.res.headers.get('vary')).toBe('Accept-Encoding, User-Agent, Cookie');
  });
});
