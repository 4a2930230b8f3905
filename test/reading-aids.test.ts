/**
 * 辅助浏览 in real Chromium (docs/product/accessibility.md): its switches as plain links that work
 * without JavaScript and are remembered from page to page; the theme in the server's HTML, so
 * never a flash of the other; the system's contrast preference followed unless the visitor chose;
 * the list by keyboard; the large cursor; and 语音朗读, with the page's speechSynthesis replaced
 * by a recorder: what it reads and in what order, the sentence highlighted and in view, pause,
 * resume and stop from the keyboard, the watchdog that moves on when a voice never ends, and no
 * control where the browser has no Chinese voice. Its code is loaded only when the list is opened.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURSOR_COOKIE, THEME_COOKIE } from '../shared/constants.js';
import { axeViolations } from './support/axe.js';
import { consoleProblems, gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { underFootBars } from './support/page-checks/text-spacing.js';
import { themeContrastFaults } from './support/page-checks/theme-contrast.js';
import { sampleUrl } from './support/sample-urls.js';
import type { RunningService } from './support/start-service.js';

interface Spoken {
  text: string;
  lang: string;
  voice: string | undefined;
  highlighted: string | undefined;
  top: number;
  bottom: number;
}

/**
 * Replaces the page's speech synthesis, before its scripts run, by a recorder: getVoices answers
 * what the test sets (nothing at first, as Chromium does before `voiceschanged`), speak records the
 * utterance with the highlight and its place at that moment, cancel is counted. The utterance's
 * constructor takes any voice (the real one takes only the browser's own, and headless Chromium
 * here has none).
 */
function recordSpeech() {
  const record = { spoken: [] as Spoken[], cancelled: 0, asked: 0 };
  let voices: object[] = [];
  const w = window as unknown as Record<string, unknown>;
  w.speechRecord = record;
  w.setVoices = (list: object[]) => {
    voices = list;
    speechSynthesis.dispatchEvent(new Event('voiceschanged'));
  };
  const define = (name: string, value: unknown) => Object.defineProperty(speechSynthesis, name, { value, configurable: true });
  define('getVoices', () => (record.asked++, voices));
  define('cancel', () => record.cancelled++);
  define('speak', (u: SpeechSynthesisUtterance) => {
    const range = [...((CSS.highlights.get('read-aloud') as Set<Range> | undefined) ?? [])][0];
    const rect = range?.getBoundingClientRect();
    record.spoken.push({
      text: u.text,
      lang: u.lang,
      voice: u.voice?.name,
      highlighted: range?.toString(),
      top: rect?.top ?? NaN,
      bottom: rect?.bottom ?? NaN,
    });
    w.utterance = u;
  });
  class AnyVoice extends SpeechSynthesisUtterance {
    #voice: SpeechSynthesisVoice | null = null;
    override get voice() {
      return this.#voice;
    }
    override set voice(voice) {
      this.#voice = voice;
    }
  }
  w.SpeechSynthesisUtterance = AnyVoice;
}

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const CHINESE_VOICE = { name: '测试普通话', lang: 'zh-CN', localService: true, default: false, voiceURI: 'test-zh' };
const ENGLISH_VOICE = { name: 'Test English', lang: 'en-US', localService: true, default: true, voiceURI: 'test-en' };

const spoken = (page: Page) => page.evaluate(() => (window as unknown as { speechRecord: { spoken: Spoken[] } }).speechRecord.spoken);
const setVoices = (page: Page, voices: object[]) =>
  page.evaluate((v) => (window as unknown as { setVoices(v: object[]): void }).setVoices(v), voices);
/** The utterance being spoken ends, as the voice would say. */
const endUtterance = (page: Page) =>
  page.evaluate(() => (window as unknown as { utterance: SpeechSynthesisUtterance }).utterance.dispatchEvent(new Event('end')));
/** Text without its white space and the invisible characters a typesetter may put in (read-aloud/sentences.ts says none). */
const squeeze = (s: string) => s.replace(/[\s\u2060\u200b\u00ad]+/g, '');

/** Opens the top bar's 辅助浏览 list and waits for a Chinese voice to be offered. */
async function openWithVoice(page: Page): Promise<void> {
  await page.locator('.top-bar .a11y-toggle').click();
  // The read-aloud code loads as the list opens, then asks for voices: Chromium has them only after `voiceschanged`.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { speechRecord: { asked: number } }).speechRecord.asked))
    .toBeGreaterThan(0);
  await setVoices(page, [ENGLISH_VOICE, CHINESE_VOICE]);
  await page.locator('.top-bar .a11y-read').waitFor({ state: 'visible' });
}

describe('辅助浏览 and 语音朗读, in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('without JavaScript, each switch is a link: the server draws the next page with it, every page after remembers it, and 重置 forgets all', async () => {
    const w = await openPage(browser, { width: 1280, height: 900, javaScriptEnabled: false });
    const { page } = w;
    const html = () => page.evaluate(() => ({ ...document.documentElement.dataset }));
    await page.goto(`${svc.url}/lxwm/index`);
    // A <details>: it opens without scripts.
    await page.locator('.top-bar .a11y-toggle').click();
    await page.locator('.top-bar .a11y-contrast-off').click();
    await page.waitForURL(`${svc.url}/lxwm/index`);
    expect(await html()).toMatchObject({ theme: 'contrast' });
    // The theme's colours, drawn from the server's HTML alone.
    expect(await page.evaluate(() => getComputedStyle(document.body).color)).toBe('rgb(11, 22, 32)');
    await page.locator('.top-bar .a11y-toggle').click();
    await page.locator('.top-bar .a11y-cursor-off').click();
    await page.goto(`${svc.url}/jtjj/qywh`);
    expect(await html()).toMatchObject({ theme: 'contrast', cursor: 'large' });
    // Each switch now shows the link that turns it off.
    await page.locator('.top-bar .a11y-toggle').click();
    expect(await page.locator('.top-bar .a11y-contrast-on').textContent()).toBe('高对比度开');
    expect(await page.locator('.top-bar .a11y-contrast-off').isVisible()).toBe(false);
    await page.locator('.top-bar .a11y-reset').click();
    await page.waitForURL(`${svc.url}/jtjj/qywh`);
    expect(await html()).toEqual({ scale: 'zoom' });
    const cookies = await page.context().cookies();
    expect(cookies.filter((c) => [THEME_COOKIE, CURSOR_COOKIE].includes(c.name))).toEqual([]);
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it('the theme is in the server’s HTML, never a flash of the other; the system’s contrast preference chooses it only where the visitor did not', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    // What the server sent, before any script ran.
    const served = await (await page.request.get(`${svc.url}/`, { headers: { cookie: `${THEME_COOKIE}=contrast` } })).text();
    expect(served).toMatch(/^<!doctype html><html lang="zh-CN" data-scale="zoom" data-theme="contrast">/);
    await page.emulateMedia({ contrast: 'more' });
    await gotoHydrated(page, `${svc.url}/`);
    expect(await theme()).toBe('contrast');
    // The head script follows the preference as it changes.
    await page.emulateMedia({ contrast: 'no-preference' });
    await expect.poll(theme).toBe(undefined);
    await page.emulateMedia({ contrast: 'more' });
    await expect.poll(theme).toBe('contrast');
    // Chosen off: the preference no longer decides.
    await page.context().addCookies([{ name: THEME_COOKIE, value: 'plain', url: svc.url }]);
    await gotoHydrated(page, `${svc.url}/`);
    expect(await theme()).toBe('plain');
    expect(await page.evaluate(() => getComputedStyle(document.body).color)).toBe('rgb(28, 43, 58)');
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it('in the high-contrast theme, what opens over the page meets it too: the 辅助浏览 list, each header panel, the phone menu', async () => {
    const found: string[] = [];
    const settled = (page: Page) => page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    const look = async (page: Page, what: string) => {
      await settled(page);
      found.push(...(await axeViolations(page)).map((v) => `${what}: ${v}`));
      found.push(...(await themeContrastFaults(page)).map((v) => `${what}: ${v}`));
    };
    for (const width of [1920, 390]) {
      const w = await openPage(browser, { width, height: width < 500 ? 844 : 1080 });
      const { page } = w;
      await page.context().addCookies([{ name: THEME_COOKIE, value: 'contrast', url: svc.url }]);
      await gotoHydrated(page, `${svc.url}/lxwm/index`);
      if (width < 500) {
        await page.locator('.menu-toggle').click();
        await page.locator('.site-nav .a11y-toggle').click();
        await look(page, 'the phone menu with 辅助浏览 open');
      } else {
        await page.locator('.top-bar .a11y-toggle').click();
        await look(page, '辅助浏览');
        await page.keyboard.press('Escape');
        const items = page.locator('.nav-link[aria-controls]');
        for (let i = 0; i < (await items.count()); i++) {
          const panel = page.locator(`#${(await items.nth(i).getAttribute('aria-controls'))!}`);
          await items.nth(i).hover();
          await expect.poll(() => panel.isVisible(), { message: `panel ${i}` }).toBe(true);
          await look(page, `the panel of ${await items.nth(i).textContent()}`);
        }
      }
      expect(consoleProblems(w)).toEqual([]);
      await page.context().close();
    }
    expect(found).toEqual([]);
  });

  it('the list is used by keyboard: Enter opens it, Tab goes through its switches, Escape closes it back to its button', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    await gotoHydrated(page, `${svc.url}/lxwm/index`);
    await page.locator('.top-bar .a11y-toggle').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.top-bar .a11y-toolbar').getAttribute('open')).toBe('');
    const names: string[] = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      names.push(await page.evaluate(() => (document.activeElement as HTMLElement).innerText.replace(/\s+/g, '')));
    }
    expect(names).toEqual(['长者模式关', '高对比度关', '大鼠标关', '重置恢复默认', '无障碍说明']);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.top-bar .a11y-toolbar').getAttribute('open')).toBe(null);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('a11y-toggle');
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it('the large cursor: three times the size over the page, a hand over links', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    await page.context().addCookies([{ name: CURSOR_COOKIE, value: 'large', url: svc.url }]);
    await gotoHydrated(page, `${svc.url}/lxwm/index`);
    const cursor = (selector: string) => page.evaluate((s) => getComputedStyle(document.querySelector(s)!).cursor, selector);
    expect(await cursor('main p')).toMatch(/cursor-arrow\.svg.*5 3, auto$/);
    expect(await cursor('.nav-link')).toMatch(/cursor-hand\.svg.*18 2, pointer$/);
    for (const name of ['arrow', 'hand', 'text']) {
      const res = await page.request.get(`${svc.url}/media/brand/cursor-${name}.svg`);
      expect(res.status()).toBe(200);
      expect(await res.text()).toMatch(/^<svg [^>]*width="48" height="48"/);
    }
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it('语音朗读 reads the main content sentence by sentence, in order, in zh-CN, each highlighted and in view; its code loads only when the list opens', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    await page.addInitScript(recordSpeech);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const scripts: string[] = [];
    page.on('request', (r) => scripts.push(new URL(r.url()).pathname));
    await gotoHydrated(page, `${svc.url}${sampleUrl('/hzhf/kpzsDetail')}`);
    expect(scripts.filter((s) => s.includes('read-aloud'))).toEqual([]);
    // Hidden in the server's HTML, and until a Chinese voice is known.
    expect(await page.locator('.a11y-read').first().isVisible()).toBe(false);
    await openWithVoice(page);
    expect(scripts.filter((s) => /\/assets\/read-aloud-[\w-]+\.js$/.test(s))).toHaveLength(1);

    await page.locator('.top-bar .a11y-read').click();
    await page.locator('.read-aloud-bar').waitFor();
    const header = await page.evaluate(() => document.querySelector('.site-header')!.getBoundingClientRect().bottom);
    // Through to the end: each sentence ends as the voice would, and the next one is read; after the last, the bar goes.
    const bar = page.locator('.read-aloud-bar');
    for (let read = (await spoken(page)).length; await bar.isVisible(); read = (await spoken(page)).length) {
      if (read > 200) throw new Error('more than 200 sentences');
      await endUtterance(page);
      await expect.poll(async () => (await spoken(page)).length > read || !(await bar.isVisible())).toBe(true);
    }
    const said = await spoken(page);
    expect(said.length).toBeGreaterThan(10);
    const main = squeeze(await page.locator('main').innerText());
    let at = 0;
    for (const s of said) {
      expect(s).toMatchObject({ lang: 'zh-CN', voice: CHINESE_VOICE.name });
      expect(s.text.length).toBeLessThanOrEqual(60);
      expect(s.text).not.toMatch(/[\u2060\u200b\u00ad]/);
      // The highlight is the sentence being read, and it is in the window, below the fixed header.
      expect(squeeze(s.highlighted ?? '')).toBe(squeeze(s.text));
      expect(s.top).toBeGreaterThanOrEqual(header - 1);
      expect(s.bottom).toBeLessThanOrEqual(900);
      // In the page's order.
      const found = main.indexOf(squeeze(s.text), at);
      expect(found, s.text).toBeGreaterThanOrEqual(at);
      at = found + squeeze(s.text).length;
    }
    // Every paragraph and heading of the article is read, whole.
    const all = squeeze(said.map((s) => s.text).join(''));
    for (const text of await page.locator('main :is(h1, h2, .rich-text p):not(.sr-only)').allInnerTexts())
      expect(all, text).toContain(squeeze(text));
    // Read to the end: the bar and the highlight go.
    expect(await page.evaluate(() => CSS.highlights.has('read-aloud'))).toBe(false);
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it('语音朗读 is paused, resumed and stopped from the keyboard, and a voice that never ends is given up for the next sentence', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    await page.clock.install();
    await page.addInitScript(recordSpeech);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await gotoHydrated(page, `${svc.url}${sampleUrl('/hzhf/kpzsDetail')}`);
    await openWithVoice(page);
    await page.locator('.top-bar .a11y-read').focus();
    await page.keyboard.press('Enter');
    await page.locator('.read-aloud-bar').waitFor();
    // The bar's first button has the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('暂停');
    const first = (await spoken(page))[0]!.text;
    const cancelled = () => page.evaluate(() => (window as unknown as { speechRecord: { cancelled: number } }).speechRecord.cancelled);
    const before = await cancelled();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.read-aloud-status').innerText()).toContain('已暂停');
    expect(await cancelled()).toBeGreaterThan(before);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('继续');
    // Resumed: the sentence is read again from its start.
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await spoken(page)).map((s) => s.text)).toEqual([first, first]);
    // Nothing ends it: well past its time, the next sentence is read.
    await page.clock.fastForward(60_000);
    await expect.poll(async () => (await spoken(page)).length).toBe(3);
    expect((await spoken(page))[2]!.text).not.toBe(first);
    // Escape stops: the bar and the highlight go, and the focus is back on the list's button.
    await page.keyboard.press('Escape');
    await page.locator('.read-aloud-bar').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => CSS.highlights.has('read-aloud'))).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('a11y-toggle');
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it.each([
    ['from the phone menu, at 390 px', 390, undefined],
    ['in the transform mode of Firefox and Edge, where the app’s root scrolls', 1280, FIREFOX],
  ])('语音朗读 %s: each sentence is brought into view, and the page makes room for the bar at its end', async (_, width, userAgent) => {
    const w = await openPage(browser, { width, height: width < 500 ? 844 : 900, ...(userAgent ? { userAgent } : {}) });
    const { page } = w;
    await page.addInitScript(recordSpeech);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await gotoHydrated(page, `${svc.url}${sampleUrl('/hzhf/kpzsDetail')}`);
    const place = width < 500 ? '.site-nav' : '.top-bar';
    if (width < 500) await page.locator('.menu-toggle').click();
    await page.locator(`${place} .a11y-toggle`).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { speechRecord: { asked: number } }).speechRecord.asked))
      .toBeGreaterThan(0);
    await setVoices(page, [CHINESE_VOICE]);
    await page.locator(`${place} .a11y-read`).click();
    await page.locator('.read-aloud-bar').waitFor();
    // The menu, where it was started from, closed over the page being read.
    expect(await page.locator('.menu-toggle').getAttribute('aria-expanded')).toBe('false');
    for (let read = 1; read < 12; read++) {
      await endUtterance(page);
      await expect.poll(async () => (await spoken(page)).length).toBe(read + 1);
    }
    const header = await page.evaluate(() => document.querySelector('.site-header')!.getBoundingClientRect().bottom);
    const barTop = await page.evaluate(() => document.querySelector('.read-aloud-bar')!.getBoundingClientRect().top);
    // Once the bar is up, each sentence is between the header and the bar.
    for (const s of (await spoken(page)).slice(2)) {
      expect(s.top, s.text).toBeGreaterThanOrEqual(header - 1);
      expect(s.bottom, s.text).toBeLessThanOrEqual(barTop + 1);
    }
    // The page makes room for the bar: scrolled to its end, nothing is left under it.
    expect(await underFootBars(page)).toEqual([]);
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it('语音朗读 is not offered where the browser has no Chinese voice', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    await page.addInitScript(recordSpeech);
    await gotoHydrated(page, `${svc.url}/lxwm/index`);
    await page.locator('.top-bar .a11y-toggle').click();
    const asked = () => page.evaluate(() => (window as unknown as { speechRecord: { asked: number } }).speechRecord.asked);
    await expect.poll(asked).toBeGreaterThan(0);
    const before = await asked();
    await setVoices(page, [ENGLISH_VOICE, { ...ENGLISH_VOICE, name: '粤语', lang: 'zh-HK' }]);
    // The list of voices was read again after it changed, and still nothing is offered.
    await expect.poll(asked).toBeGreaterThan(before);
    expect(await page.locator('.top-bar .a11y-read').isVisible()).toBe(false);
    expect(await page.locator('.top-bar .a11y-list > li').evaluateAll((items) => items.map((li) => (li as HTMLElement).hidden))).toEqual([
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });
});
