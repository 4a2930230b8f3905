/**
 * The promo film page (/jtjj/qyhcp) in real Chromium against the built service: the film named by
 * the content API plays in the browser's own <video> with its Chinese captions, from the keyboard,
 * each of its files plays on its own, and they answer Range requests with 206, as a player seeking
 * asks for them.
 */
import { sourceOfAddress } from '../shared/media-url.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Promotion } from '../shared/contract/entities.js';
import { consoleProblems, gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { type RunningService } from './support/start-service.js';

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
    expect(await video.getAttribute('poster')).toBe(film!.poster!.src);
    expect(await video.evaluate((v: HTMLVideoElement) => v.controls)).toBe(true);
    expect(media).toEqual([]);
    // The length is shown for the published film only.
    expect(await w.page.locator('.promo-duration').allTextContents()).toEqual(
      films.filter((f) => f.video).map((f) => `时长 ${f.duration}`),
    );

    // The video takes focus with Tab like any control, and the space bar plays it.
    await video.focus();
    expect(await video.evaluate((v) => v === document.activeElement)).toBe(true);
    await w.page.keyboard.press('Space');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.5);
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
