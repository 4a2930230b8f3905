/**
 * The variant of a page, decided on the server: the scaling mode from the User-Agent, the
 * large-text mode, the theme and the large cursor from their cookies (set by plain links), or what
 * a trusted edge says; cached and varied apart, never one for another.
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
    // Only the server reads it: HttpOnly; Secure only where the site is served over https.
    expect(on.headers.get('set-cookie')).toBe('textsize=large; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly');
    expect(on.headers.get('cache-control')).toBe('no-store');
    const off = await fetch(`${svc.url}/text-size?large=0&back=/`, { redirect: 'manual' });
    expect(off.headers.get('set-cookie')).toBe('textsize=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly');
    for (const back of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const res = await fetch(`${svc.url}/text-size?large=1&back=${encodeURIComponent(back)}`, { redirect: 'manual' });
      expect(res.headers.get('location'), back).toBe('/');
    }
  });

  it('the cookie is Secure when the site’s public origin is https', async () => {
    svc = await startService({ PUBLIC_ORIGIN: 'https://www.example.cn' }, { clientDir: 'dist/client' });
    const on = await fetch(`${svc.url}/text-size?large=1&back=/`, { redirect: 'manual' });
    expect(on.headers.get('set-cookie')).toBe('textsize=large; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly; Secure');
  });

  it('the 辅助浏览 switch remembers the theme and the cursor, forgets every preference on reset, and refuses what it does not know', async () => {
    svc = await startService({}, { clientDir: 'dist/client' });
    const cookies = async (query: string) => {
      const res = await fetch(`${svc!.url}/a11y?${query}`, { redirect: 'manual' });
      return {
        status: res.status,
        location: res.headers.get('location'),
        cookies: res.headers.getSetCookie(),
        cache: res.headers.get('cache-control'),
      };
    };
    const year = 'Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly';
    const gone = 'Path=/; Max-Age=0; SameSite=Lax; HttpOnly';
    expect(await cookies(`theme=contrast&back=${encodeURIComponent('/lxwm/index')}`)).toEqual({
      status: 303,
      location: '/lxwm/index',
      cookies: [`theme=contrast; ${year}`],
      cache: 'no-store',
    });
    expect((await cookies('theme=plain&back=/')).cookies).toEqual([`theme=plain; ${year}`]);
    expect((await cookies('theme=auto&back=/')).cookies).toEqual([`theme=; ${gone}`]);
    expect((await cookies('cursor=large&back=/')).cookies).toEqual([`cursor=large; ${year}`]);
    expect((await cookies('cursor=normal&back=/')).cookies).toEqual([`cursor=; ${gone}`]);
    expect((await cookies('theme=contrast&cursor=large&back=/')).cookies).toEqual([`theme=contrast; ${year}`, `cursor=large; ${year}`]);
    expect((await cookies('reset=1&back=/hzhf/kpzs')).cookies).toEqual([`textsize=; ${gone}`, `theme=; ${gone}`, `cursor=; ${gone}`]);
    expect((await cookies('theme=contrast&back=//evil.example/')).location).toBe('/');
    // Refused, and nothing changed: a value it does not know, a parameter given twice, nothing to change.
    for (const query of [
      'theme=dark&back=/',
      'cursor=huge',
      'theme=contrast&theme=plain',
      'theme=contrast&cursor=',
      'reset=yes',
      'back=/',
      '',
    ]) {
      const refused = await fetch(`${svc.url}/a11y?${query}`, { redirect: 'manual' });
      expect(refused.status, query).toBe(400);
      expect(refused.headers.getSetCookie(), query).toEqual([]);
      expect(await refused.text(), query).toContain('设置有误');
    }
  });

  it('the 辅助浏览 cookies are Secure when the site’s public origin is https', async () => {
    svc = await startService({ PUBLIC_ORIGIN: 'https://www.example.cn' }, { clientDir: 'dist/client' });
    const on = await fetch(`${svc.url}/a11y?cursor=large&back=/`, { redirect: 'manual' });
    expect(on.headers.getSetCookie()).toEqual(['cursor=large; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly; Secure']);
  });

  it('the theme and the cursor are drawn by the server in every layout, and each of the 18 variants is cached apart', async () => {
    svc = await startService({}, { clientDir: 'dist/client' });
    const visits: { headers: Record<string, string>; tag: string }[] = [];
    for (const [ua, scale] of [
      [CHROME, 'zoom'],
      [FIREFOX, 'transform'],
    ] as const)
      for (const large of [false, true])
        for (const theme of ['', 'contrast', 'plain'])
          for (const cursor of [false, true]) {
            // The large-text mode is the same page for any browser: asked once.
            if (large && ua === FIREFOX) continue;
            const cookie = [large ? 'textsize=large' : '', theme ? `theme=${theme}` : '', cursor ? 'cursor=large' : '']
              .filter(Boolean)
              .join('; ');
            const tag = [
              `<html lang="zh-CN" data-scale="${large ? 'zoom' : scale}"`,
              large ? ' data-text="large"' : '',
              theme ? ` data-theme="${theme}"` : '',
              cursor ? ' data-cursor="large"' : '',
              '>',
            ].join('');
            visits.push({ headers: { 'user-agent': ua, ...(cookie ? { cookie } : {}) }, tag });
          }
    expect(visits).toHaveLength(18);
    const etags = new Set<string | null>();
    for (const { headers, tag } of visits) {
      const first = await page('/jtjj/qywh', headers);
      expect(first.res.headers.get('x-cache'), tag).not.toBe('HIT');
      expect(htmlTag(first.html)).toBe(tag);
      etags.add(first.res.headers.get('etag'));
    }
    // Each from the page cache now, each its own; and each with its own validator.
    for (const { headers, tag } of visits) {
      const again = await page('/jtjj/qywh', headers);
      expect(again.res.headers.get('x-cache'), tag).toBe('HIT');
      expect(htmlTag(again.html)).toBe(tag);
    }
    expect(etags.size).toBe(18);
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
    // The edge's whole choice, theme and cursor too; a name out of order is no variant.
    const chosen = await page('/lxwm/index', { 'user-agent': CHROME, 'x-page-variant': 'large+contrast+cursor' });
    expect(htmlTag(chosen.html)).toBe('<html lang="zh-CN" data-scale="zoom" data-text="large" data-theme="contrast" data-cursor="large">');
    // The edge decides: the cookies the request still carries are not read.
    const plain = await page('/lxwm/index', { 'user-agent': CHROME, 'x-page-variant': 'zoom', cookie: 'theme=contrast' });
    expect(htmlTag(plain.html)).toBe('<html lang="zh-CN" data-scale="zoom">');
    const reordered = await page('/lxwm/index', { 'user-agent': CHROME, 'x-page-variant': 'zoom+cursor+contrast', cookie: 'theme=plain' });
    expect(htmlTag(reordered.html)).toBe('<html lang="zh-CN" data-scale="zoom" data-theme="plain">');
    expect(reordered.res.headers.get('vary')).toBe('Accept-Encoding, User-Agent, Cookie');
    await svc.close();

    svc = await startService({}, { clientDir: 'dist/client' });
    const forged = await page('/lxwm/index', { 'user-agent': CHROME, 'x-page-variant': 'large+contrast' });
    expect(htmlTag(forged.html)).toBe('<html lang="zh-CN" data-scale="zoom">');
    expect(forged.res.headers.get('vary')).toBe('Accept-Encoding, User-Agent, Cookie');
  });
});
