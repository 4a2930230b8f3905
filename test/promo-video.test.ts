/**
 * The promo film page (/jtjj/qyhcp) in real Chromium against the built service: the film named by
 * the content API plays in the browser's own <video> with its Chinese captions, from the keyboard
 * and from its poster's play button, as wide as the column, its captions at least 16 px on the
 * screen at every width; the films not yet published are named once as coming, never shown as
 * playable; each of its files plays on its own, and they answer Range requests with 206, as a
 * player seeking asks for them.
 */
import { sourceOfAddress } from '../shared/media-url.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Promotion } from '../shared/contract/entities.js';
import { TEXT_SIZE_COOKIE } from '../shared/constants.js';
import { consoleProblems, gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { type RunningService } from './support/start-service.js';

/**
 * The size of the film's first caption on the screen, in CSS px: its cue's computed font size
 * (the user agent's shadow tree, read through the DevTools protocol) times the zoom it is drawn at.
 */
async function captionPx(page: Page): Promise<number> {
  const video = page.locator('video.film-player');
  await page.waitForFunction(() => (document.querySelector('video')!.textTracks[0]?.activeCues?.length ?? 0) > 0, null, {
    timeout: 15_000,
  });
  await video.evaluate((v: HTMLVideoElement) => v.pause());
  const cdp = await page.context().newCDPSession(page);
  type Node = { nodeId: number; attributes?: string[]; children?: Node[]; shadowRoots?: Node[] };
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: Node };
  const find = (n: Node): Node | undefined => {
    const at = n.attributes?.indexOf('pseudo') ?? -1;
    if (at >= 0 && n.attributes![at + 1] === 'cue') return n;
    for (const c of [...(n.children ?? []), ...(n.shadowRoots ?? [])]) {
      const hit = find(c);
      if (hit) return hit;
    }
    return undefined;
  };
  const cue = find(root);
  if (!cue) throw new Error('no caption is shown');
  await cdp.send('CSS.enable');
  const { computedStyle } = await cdp.send('CSS.getComputedStyleForNode', { nodeId: cue.nodeId });
  const size = parseFloat(computedStyle.find((c) => c.name === 'font-size')!.value);
  return size * (await video.evaluate((v) => v.currentCSSZoom));
}

describe('the promo film, in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  let films: Promotion[];
  beforeAll(async () => {
    ({ svc, browser } = await startSiteAndChromium());
    films = ((await (await fetch(`${svc.url}/api/promotions`)).json()) as { data: Promotion[] }).data;
  });
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('the content names at least one published film, with its files, poster, length and captions', () => {
    const published = films.filter((f) => f.video);
    expect(published.length).toBeGreaterThan(0);
    for (const f of published) {
      expect(f.video!.sources.map((s) => s.type)).toEqual(expect.arrayContaining(['video/mp4', 'video/webm']));
      expect(f.video!.captions[0]!.lang).toBe('zh-CN');
      expect(f.duration).toMatch(/^\d{2}:\d{2}$/);
    }
  });

  it('each file answers a Range request with 206 and the bytes asked for, and is cached', async () => {
    const [film] = films.filter((f) => f.video);
    for (const {
      src: { src },
      type,
    } of [...film!.video!.sources, { src: film!.video!.captions[0]!.src, type: 'text/vtt' }]) {
      const whole = await fetch(svc.url + src);
      expect(whole.status, src).toBe(200);
      expect(whole.headers.get('content-type'), src).toContain(type);
      expect(whole.headers.get('accept-ranges'), src).toBe('bytes');
      // Kept a year once its address names its version; five minutes (then revalidated) until then.
      expect(whole.headers.get('cache-control'), src).toMatch(/max-age=\d{3,}/);
      const bytes = new Uint8Array(await whole.arrayBuffer());
      const part = await fetch(svc.url + src, { headers: { range: 'bytes=100-199' } });
      expect(part.status, src).toBe(206);
      expect(part.headers.get('content-range'), src).toBe(`bytes 100-199/${bytes.length}`);
      expect(new Uint8Array(await part.arrayBuffer()), src).toEqual(bytes.slice(100, 200));
    }
  });

  it('the page plays the film from the keyboard, with its captions shown, and loads nothing before', async () => {
    const w = await openPage(browser, { width: 1280, height: 800 });
    const media: string[] = [];
    w.page.on('request', (r) => {
      if (/\.(mp4|webm)$/.test(sourceOfAddress(r.url()) ?? '')) media.push(r.url());
    });
    await gotoHydrated(w.page, `${svc.url}/jtjj/qyhcp`);
    const [film] = films.filter((f) => f.video);
    const video = w.page.locator('video.film-player').first();
    expect(await video.getAttribute('preload')).toBe('none');
    // Its poster covers it, drawn from the film's own poster.
    expect(await w.page.locator('.film-cover img').getAttribute('srcset')).toContain(film!.poster!.ref);
    // The browser's controls are asked for once it plays: until then the cover stands for them.
    expect(await video.evaluate((v: HTMLVideoElement) => v.controls)).toBe(false);
    expect(media).toEqual([]);
    // The length is shown for the published film only.
    expect(await w.page.locator('.promo-duration').allTextContents()).toEqual(
      films.filter((f) => f.video).map((f) => `时长 ${f.duration}`),
    );

    // The poster's play button takes focus with Tab like any control, and Enter plays the film,
    // whose own controls then have the focus.
    await w.page.locator('.film-cover').focus();
    await w.page.keyboard.press('Enter');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.5);
    expect(await video.evaluate((v) => v === document.activeElement)).toBe(true);
    expect(await video.evaluate((v: HTMLVideoElement) => v.controls)).toBe(true);
    expect(await w.page.locator('.film-cover').count()).toBe(0);
    expect(await video.evaluate((v: HTMLVideoElement) => new URL(v.currentSrc).pathname)).toBe(film!.video!.sources[0]!.src.src);

    // Captions: the Chinese track is loaded and showing, and its cue matches the time.
    const captions = () =>
      video.evaluate((v: HTMLVideoElement) => {
        const track = v.textTracks[0]!;
        return { mode: track.mode, language: track.language, cue: (track.activeCues?.[0] as VTTCue | undefined)?.text ?? '' };
      });
    await expect.poll(async () => (await captions()).cue, { timeout: 10_000 }).not.toBe('');
    expect(await captions()).toMatchObject({ mode: 'showing', language: 'zh-CN' });
    expect((await captions()).cue).toMatch(/[\u4e00-\u9fff]/);
    await video.evaluate((v: HTMLVideoElement) => v.pause());
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });

  it('a click in the middle of the poster plays the film, the player as wide as the column', async () => {
    for (const width of [1920, 1280, 390]) {
      const w = await openPage(browser, { width, height: 900 });
      await gotoHydrated(w.page, `${svc.url}/jtjj/qyhcp`);
      const sizes = await w.page.evaluate(() => ({
        player: document.querySelector('video.film-player')!.getBoundingClientRect().width,
        column: document.querySelector('.list-head')!.getBoundingClientRect().width,
      }));
      expect(sizes.player, `${width}`).toBeGreaterThanOrEqual(sizes.column - 1);
      await w.page.locator('.film').evaluate((el) => el.scrollIntoView({ block: 'center' }));
      const box = (await w.page.locator('.film').boundingBox())!;
      await w.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      const video = w.page.locator('video.film-player');
      await expect
        .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000, message: `${width}` })
        .toBeGreaterThan(0.2);
      await video.evaluate((v: HTMLVideoElement) => v.pause());
      expect(consoleProblems(w)).toEqual([]);
      await w.page.context().close();
    }
  });

  // Eight visits that each play the film: longer than one test's default on a busy machine.
  it('captions are at least 16 px on the screen at every width, in both text sizes', { timeout: 90_000 }, async () => {
    const found: string[] = [];
    // One context for each text size, the page loaded anew at each width.
    for (const large of [false, true]) {
      const w = await openPage(browser, { width: 1920, height: 900 });
      if (large) await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
      for (const width of [1920, 1280, 768, 390]) {
        await w.page.setViewportSize({ width, height: 900 });
        await gotoHydrated(w.page, `${svc.url}/jtjj/qyhcp`);
        await w.page.locator('.film-cover').click();
        const px = await captionPx(w.page);
        if (px < 16) found.push(`${width}${large ? ' large' : ''}: ${px.toFixed(1)} px`);
      }
      await w.page.context().close();
    }
    expect(found).toEqual([]);
  });

  it('the films not yet published are named once, as coming, and never shown as playable', async () => {
    const w = await openPage(browser, { width: 1280, height: 800 });
    await gotoHydrated(w.page, `${svc.url}/jtjj/qyhcp`);
    const published = films.filter((f) => f.video);
    const coming = films.filter((f) => !f.video);
    expect(coming.length).toBeGreaterThan(0);
    expect(await w.page.locator('.list-count').textContent()).toBe(`共 ${published.length} 部`);
    expect(await w.page.locator('.film').count()).toBe(published.length);
    expect(await w.page.locator('.promo-coming').count()).toBe(1);
    const line = (await w.page.locator('.promo-coming').textContent())!;
    expect(line).toMatch(/^即将上线/);
    for (const f of coming) expect(line).toContain(f.title);
    // Nothing of theirs but their names: no poster, no card.
    const pictures = await w.page.locator('main img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('srcset') ?? ''));
    for (const f of coming) expect(pictures.some((s) => s.includes(f.poster!.ref))).toBe(false);
    await w.page.context().close();
  });

  it('every file of the film plays in Chromium on its own (WebM and MP4)', async () => {
    const w = await openPage(browser, { width: 1280, height: 800 });
    await gotoHydrated(w.page, `${svc.url}/jtjj/qyhcp`);
    const [film] = films.filter((f) => f.video);
    for (const {
      src: { src },
    } of film!.video!.sources) {
      const played = await w.page.evaluate(async (src) => {
        const v = document.createElement('video');
        v.muted = true;
        v.src = src;
        document.body.append(v);
        await v.play();
        await new Promise<void>((resolve) => v.addEventListener('timeupdate', () => v.currentTime > 0.3 && resolve()));
        v.pause();
        const out = { time: v.currentTime, width: v.videoWidth, duration: v.duration };
        v.remove();
        return out;
      }, src);
      expect(played.time, src).toBeGreaterThan(0.3);
      expect(played.width, src).toBeGreaterThan(0);
      // The length the card shows is the file's, to the second.
      const [mm, ss] = film!.duration!.split(':').map(Number);
      expect(Math.abs(played.duration - (mm! * 60 + ss!)), src).toBeLessThan(1);
    }
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });
});
