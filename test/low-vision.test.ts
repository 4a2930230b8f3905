/**
 * What a visitor who sees poorly meets, in real Chromium against the built service (issue 45
 * points 4 to 6): focus that stays in view with a ring that stands out, text that keeps reading
 * when spaced out, pages that reflow at 320 px and at 400 % zoom of a 1280 px window with a header
 * that leaves the window to the page, and a carousel that a visitor can stop. Focus and text
 * spacing on every page are checked by the every-page pass (test/every-page-*.test.ts); here,
 * that those checks find what they are asked to, the reflow and the carousel.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_SIZE_COOKIE } from '../shared/constants.js';
import {
  consoleProblems,
  expectNothingFound,
  gotoHydrated,
  onEach,
  openPage,
  startSiteAndChromium,
  stopSiteAndChromium,
  windowAt,
} from './support/browser.js';
import { pastTheSide } from './support/page-checks/drawn.js';
import { focusedNow, focusFaults } from './support/page-checks/focus.js';
import { spacedTextFaults, spacingFaults, underFootBars } from './support/page-checks/text-spacing.js';
import { EVERY_PAGE, sampleUrl } from './support/sample-urls.js';
import { type RunningService } from './support/start-service.js';

/** 400 % of a 1280 × 1024 window, in CSS px (WCAG 1.4.10's 320 px width). */
const ZOOMED = { width: 320, height: 256 };

/** The slide shown, by its place. */
const shownSlide = (page: Page) =>
  page.evaluate(() => Array.from(document.querySelectorAll('.slide')).findIndex((s) => s.getAttribute('data-current') === 'true'));

/** A header that stays fixed while taking more than a quarter of the window's height. */
function headerFaults(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const header = document.querySelector('.site-header');
    if (!header) return ['no header'];
    const position = getComputedStyle(header).position;
    const height = header.getBoundingClientRect().height * (header as HTMLElement).currentCSSZoom;
    return (position === 'fixed' || position === 'sticky') && height > innerHeight / 4
      ? [`a ${position} header ${Math.round(height)} px tall in a window ${innerHeight} px tall`]
      : [];
  });
}

describe('low vision: focus, text spacing, reflow, motion, in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('the focus check finds a ring too faint for its background and a control left under the fixed header', async () => {
    const w = await openPage(browser, { width: 1280, height: 800 });
    await gotoHydrated(w.page, `${svc.url}${sampleUrl('/news')}`);
    expect(await focusFaults(w.page, 'main')).toEqual([]);
    // The ring the design had: the light teal, 2.9:1 on the grey surfaces, 3.1 on white.
    const faint = await w.page.addStyleTag({ content: ':focus-visible { outline-color: #7fc4c4 !important; }' });
    expect((await focusFaults(w.page, 'main')).join('\n')).toMatch(/forward: .* ring rgb\(127, 196, 196\) at [\d.]+:1/);
    await faint.evaluate((el) => (el as HTMLElement).remove());
    // No scroll padding: tabbing back, the browser scrolls a control just into view, under the header.
    await w.page.addStyleTag({ content: 'html, #root { scroll-padding-top: 0 !important; } [id] { scroll-margin-top: 0 !important; }' });
    expect((await focusFaults(w.page, 'main')).join('\n')).toMatch(/back: .*under the header/);
    await w.page.context().close();
  });

  it("a news item's link, tabbed to at 390 and 1280 px in both text sizes, is ringed whole, never cut by its title's line clamp: a card's on /news/index, a row's on the home page", async () => {
    for (const large of [false, true])
      for (const width of [390, 1280])
        for (const [url, link] of [
          [sampleUrl('/news/index'), '.card-title a'],
          ['/', '.content-row .row-title'],
        ] as const) {
          const mode = `${url} at ${width} px, ${large ? 'large' : 'standard'} text`;
          const w = await openPage(browser, { width, height: windowAt(width).height });
          if (large) await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
          await gotoHydrated(w.page, `${svc.url}${url}`);
          // From main (where the skip link leaves focus), Tab on to the first item's link.
          await w.page.evaluate(() => document.querySelector('main')!.focus());
          const onItem = () => w.page.evaluate((link) => document.activeElement?.matches(link) ?? false, link);
          for (let i = 0; i < 150 && !(await onItem()); i++) await w.page.keyboard.press('Tab');
          expect(await onItem(), mode).toBe(true);
          const drawn = () => w.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
          await drawn();
          expect(await focusedNow(w.page), mode).toEqual([]);
          if (url !== '/') {
            // A ring drawn round the link itself, inside the title that its line clamp clips: found cut.
            await w.page.addStyleTag({
              content: `.card-title .stretched-link:focus-visible { outline: 3px solid #0b4f8a !important; outline-offset: 2px !important; }
                .card:has(.stretched-link:focus-visible) { outline: none !important; }`,
            });
            await drawn();
            expect((await focusedNow(w.page)).join('\n'), mode).toMatch(/ring cut by h3\.card-title/);
          }
          expect(consoleProblems(w), mode).toEqual([]);
          await w.page.context().close();
        }
  });

  it('the text-spacing checks find text cut by its box, texts drawn over each other, and paragraphs set too close', async () => {
    const w = await openPage(browser, { width: 1280, height: 800 });
    await gotoHydrated(w.page, `${svc.url}${sampleUrl('/news/item')}`);
    expect(await spacedTextFaults(w.page)).toEqual([]);
    expect(await spacingFaults(w.page)).toEqual([]);
    await w.page.evaluate(() => {
      const main = document.querySelector('main')!;
      const cut = document.createElement('div');
      cut.className = 'planted-cut';
      Object.assign(cut.style, { height: '1.6em', overflow: 'hidden', width: '200px' });
      cut.textContent = '一段文字在一个固定高度的盒子里，字距和行距加大以后被盒子切掉了。';
      const over = document.createElement('div');
      over.className = 'planted-over';
      over.innerHTML = '<span>上面的一行字</span><span style="position: relative; top: -1.2em; left: -4em">压在上面的字</span>';
      // Two paragraphs with no space between them, then one whose lines are 1.1 times its type apart.
      const close = document.createElement('div');
      close.innerHTML =
        '<p style="margin: 0">第一段文字。</p><p style="margin: 0">第二段文字。</p><div><p style="line-height: 1.1">第三段文字。</p></div>';
      main.prepend(cut, over, close);
    });
    const spaced = (await spacedTextFaults(w.page)).join('\n');
    expect(spaced).toMatch(/「一段文字在一个固定高度的」 cut by div\.planted-cut/);
    expect(spaced).toMatch(/「压在上面的字」 over |over span\. 「压在上面的字」/);
    const spacing = (await spacingFaults(w.page)).join('\n');
    expect(spacing).toMatch(/「第一段文字。」 then p\. 「第二段文字。」: paragraphs 1\.00 lines apart/);
    expect(spacing).toMatch(/「第三段文字。」: lines 1\.10 times the type apart/);
    await w.page.context().close();
  });

  it("on an expert's page at 390 px the call kept at the window's foot leaves no text under it at main's end or the page's, in both text sizes, spaced out or not; a bar fixed there is found over the page's end", async () => {
    for (const large of [false, true]) {
      const w = await openPage(browser, { width: 390, height: 844 });
      if (large) await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
      await gotoHydrated(w.page, `${svc.url}${sampleUrl('/zjxz/detail')}`);
      const bar = w.page.locator('.doctor-sticky');
      // At the window's foot at the page's top: there is a bar to judge.
      const box = () => bar.evaluate((el) => ({ bottom: el.getBoundingClientRect().bottom, height: el.getBoundingClientRect().height }));
      const plain = await box();
      expect(plain.bottom, `large: ${large}`).toBeGreaterThan(843);
      expect(await underFootBars(w.page), `large: ${large}`).toEqual([]);
      // Spaced out, its call's lines are further apart and the bar taller: the text-spacing check judges it.
      const spacing = await w.page.addStyleTag({
        content: '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }',
      });
      expect((await box()).height, `large: ${large}`).toBeGreaterThan(plain.height);
      await spacing.evaluate((el) => (el as HTMLElement).remove());
      expect(await spacedTextFaults(w.page), `large: ${large}`).toEqual([]);
      if (large) {
        // The bar as it was, fixed to the window over the page's end with padding after the profile:
        // spaced out, it covers the footer's last line.
        await w.page.addStyleTag({
          content: `.doctor-sticky { position: fixed !important; left: 0; right: 0; margin: 0 !important; }
            .expert-profile { padding-bottom: 72px; }`,
        });
        expect((await spacedTextFaults(w.page)).join('\n')).toMatch(/under div\.doctor-sticky at the page's end/);
      }
      expect(consoleProblems(w)).toEqual([]);
      await w.page.context().close();
    }
  });

  for (const large of [false, true])
    it(`every page at 320 × 256 px (400 % of a 1280 × 1024 window), ${large ? 'large' : 'standard'} text: nothing past the side, the header not fixed over the short window`, () =>
      expectNothingFound(browser, svc.url, { ...ZOOMED, large }, (page) =>
        onEach(page, svc.url, EVERY_PAGE, async () => [...(await pastTheSide(page)), ...(await headerFaults(page))]),
      ));

  it('at 320 × 844 px the header stays fixed, under a quarter of the window', async () => {
    for (const large of [false, true]) {
      const w = await openPage(browser, { width: 320, height: 844 });
      if (large) await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
      await gotoHydrated(w.page, `${svc.url}${sampleUrl('/news/item')}`);
      expect(await w.page.locator('.site-header').evaluate((h) => getComputedStyle(h).position)).toBe('fixed');
      expect(await headerFaults(w.page)).toEqual([]);
      expect(await pastTheSide(w.page)).toEqual([]);
      await w.page.context().close();
    }
  });

  it('the carousel has a pause button in view at every width; paused, it holds its slide; under reduced motion it does not move until asked', async () => {
    for (const width of [320, 390, 768, 1280, 1920]) {
      const w = await openPage(browser, { width, height: 900 });
      await w.page.clock.install();
      await gotoHydrated(w.page, `${svc.url}/`);
      const button = w.page.locator('.carousel-play');
      await expect.poll(() => button.getAttribute('aria-label')).toBe('暂停轮播');
      // Within the window's width, at least 24 px wide as drawn, and the control drawn at its middle.
      await button.scrollIntoViewIfNeeded();
      const inView = await button.evaluate((b) => {
        const r = b.getBoundingClientRect();
        const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
        return r.left >= 0 && r.right <= innerWidth && r.width >= 24 && hit === b;
      });
      expect(inView, `${width} px`).toBe(true);
      // Moving: a slide on after its interval.
      const first = await shownSlide(w.page);
      await w.page.clock.runFor(6500);
      await expect.poll(() => shownSlide(w.page)).not.toBe(first);
      await button.click();
      // Away from the carousel: pointing or focus inside it pauses it as well.
      await w.page.mouse.move(1, 899);
      await button.blur();
      expect(await button.getAttribute('aria-label')).toBe('播放轮播');
      const held = await shownSlide(w.page);
      await w.page.clock.runFor(20_000);
      expect(await shownSlide(w.page)).toBe(held);
      expect(consoleProblems(w)).toEqual([]);
      await w.page.context().close();
    }
    const w = await openPage(browser, { width: 390, height: 844 });
    await w.page.emulateMedia({ reducedMotion: 'reduce' });
    await w.page.clock.install();
    await gotoHydrated(w.page, `${svc.url}/`);
    const button = w.page.locator('.carousel-play');
    await expect.poll(() => button.getAttribute('aria-label')).toBe('播放轮播');
    await w.page.clock.runFor(20_000);
    expect(await shownSlide(w.page)).toBe(0);
    await button.click();
    await w.page.mouse.move(1, 843);
    await button.blur();
    expect(await button.getAttribute('aria-label')).toBe('暂停轮播');
    await w.page.clock.runFor(6500);
    await expect.poll(() => shownSlide(w.page)).not.toBe(0);
    await w.page.context().close();
  });
});
