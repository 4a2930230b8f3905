/**
 * The parts below the first screen that the browser draws only as they near the window (the
 * home page's sections, the footer: decisions 054 and 070) hold, until drawn, a height estimated
 * from what they hold: at least what is then drawn (else a contrast checker finds their text on
 * the next part's background, test/visual.test.ts says why) and not far more (else the page is
 * much longer than it will be). Real Chromium against the built service, on a real loopback
 * upstream serving the demo content, and content about twice as long (test/support/long-content.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { TEXT_SIZE_COOKIE } from '../shared/constants.js';
import { consoleProblems, gotoHydrated, launchChromium, layoutShift, openPage } from './support/browser.js';
import { twiceAsLong } from './support/long-content.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

/** How much longer than what is drawn a placeholder may be. */
const AT_MOST = 1.25;
const WIDTHS = [1920, 1280, 390];
/** The parts the browser skips until they near the window, on the home page. */
const PARTS = '.home-section, .site-footer';

interface Part {
  part: string;
  placeholder: number;
  drawn: number;
}

/**
 * Each part's height before it is drawn, then drawn. The window is a few lines tall, so that no
 * part is near it when the page loads; each part is then drawn where it stands. A part Chromium
 * drew while the page loaded (in a frame before the pictures above it had their height) holds
 * its own height since: its placeholder is the one its style gives, with its padding.
 */
async function heights(page: Page): Promise<Part[]> {
  return page.evaluate((selector) => {
    const parts = Array.from(document.querySelectorAll<HTMLElement>(selector));
    const placeholders = parts.map((el) => {
      if (!el.firstElementChild!.checkVisibility({ contentVisibilityAuto: true })) return el.getBoundingClientRect().height;
      const style = getComputedStyle(el);
      const zoom = el.currentCSSZoom;
      return (
        (parseFloat(style.containIntrinsicHeight.replace('auto ', '')) + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom)) *
        zoom
      );
    });
    for (const el of parts) el.style.contentVisibility = 'visible';
    return parts.map((el, i) => ({
      part: el.className,
      placeholder: Math.round(placeholders[i]!),
      drawn: Math.round(el.getBoundingClientRect().height),
    }));
  }, PARTS);
}

/** The parts whose placeholder is shorter than what is drawn, or more than AT_MOST times as long. */
const misfits = (parts: Part[]) =>
  parts
    .filter((p) => p.placeholder < p.drawn || p.placeholder > p.drawn * AT_MOST)
    .map((p) => `${p.part}: ${p.placeholder} px for ${p.drawn}`);

/**
 * Scrolls from the top of the page to its end a quarter window at a time, as a reader does: before
 * each step, every part within a quarter window below the window is drawn (the browser draws a
 * part as it nears; a script scrolling faster than that would see parts drawn inside the window).
 */
async function scrollThrough(page: Page): Promise<void> {
  await page.evaluate(async (selector) => {
    const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const near = () =>
      Array.from(document.querySelectorAll<HTMLElement>(selector)).filter((el) => {
        const box = el.getBoundingClientRect();
        return box.bottom > 0 && box.top < innerHeight * 1.25;
      });
    while (scrollY + innerHeight < document.documentElement.scrollHeight - 1) {
      while (!near().every((el) => el.firstElementChild!.checkVisibility({ contentVisibilityAuto: true }))) await frame();
      scrollBy(0, innerHeight / 4);
      await frame();
    }
  }, PARTS);
}

describe('a part drawn as it nears the window holds about its own height until then', () => {
  let browser: Browser;
  const sites: { name: string; upstream: TestUpstream; svc: RunningService }[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
    for (const [name, content] of [
      ['demo', demoContent],
      ['twice as long', twiceAsLong(demoContent)],
    ] as const) {
      const upstream = await startTestUpstream(content);
      sites.push({
        name,
        upstream,
        svc: await startService({ UPSTREAM_URL: upstream.url, UPSTREAM_TIMEOUT_MS: '10000' }, { clientDir: 'dist/client' }),
      });
    }
  });
  afterAll(async () => {
    await browser?.close();
    for (const { svc, upstream } of sites) {
      await svc.close();
      await upstream.stop();
    }
  });

  for (const site of ['demo', 'twice as long']) {
    it(`${site} content: at 1920, 1280 and 390 px in both text sizes, no shorter than what is drawn and at most ${AT_MOST} times as tall; no shift scrolling through`, async () => {
      const { svc } = sites.find((s) => s.name === site)!;
      const found: string[] = [];
      for (const large of [false, true]) {
        for (const width of WIDTHS) {
          const mode = `${width} px${large ? ', large text' : ''}`;
          const low = await openPage(browser, { width, height: 300 });
          if (large) await low.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
          await gotoHydrated(low.page, `${svc.url}/`);
          const parts = await heights(low.page);
          expect(parts).toHaveLength(5);
          found.push(...misfits(parts).map((m) => `${mode}: ${m}`));
          expect(consoleProblems(low)).toEqual([]);
          await low.page.context().close();

          const w = await openPage(browser, { width, height: width < 500 ? 844 : 900 });
          if (large) await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
          await gotoHydrated(w.page, `${svc.url}/`);
          await scrollThrough(w.page);
          expect(await layoutShift(w.page), mode).toBe(0);
          expect(consoleProblems(w)).toEqual([]);
          await w.page.context().close();
        }
      }
      expect(found).toEqual([]);
    }, 240_000);
  }

  it('finds what the constants measured once on the demo content did with content twice as long: parts shorter than what they hold', async () => {
    const { svc } = sites.find((s) => s.name === 'twice as long')!;
    const w = await openPage(browser, { width: 1920, height: 300 });
    await gotoHydrated(w.page, `${svc.url}/`);
    // The heights the stylesheet gave before decision 070, at the design's width.
    await w.page.addStyleTag({
      content:
        '.home-section { contain-intrinsic-height: auto 1600px !important } .site-footer { contain-intrinsic-height: auto 720px !important }',
    });
    const short = (await heights(w.page)).filter((p) => p.placeholder < p.drawn).map((p) => p.part);
    expect(short).toEqual([
      'home-section section-treatments',
      'home-section section-hospitals',
      'home-section section-news soft',
      'site-footer',
    ]);
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });
});
