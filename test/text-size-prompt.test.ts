/**
 * The large-text prompt (docs/decisions/038, 064), in real Chromium against the built service:
 * shown on the standard page wherever it is drawn smaller than the design (501 to 1919 px), readable
 * and large enough to tap at the scaled size, never over the page; its choice is remembered like
 * the switch's.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_SIZE_COOKIE } from '../shared/constants.js';
import { TEXT_SIZE_CHOSEN_KEY } from '../shared/site/head-script.js';
import { consoleProblems, gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { type RunningService } from './support/start-service.js';

/** The prompt as drawn: whether it shows, its text's size and its links' boxes on the screen, in CSS px. */
function prompt(page: Page) {
  return page.evaluate(() => {
    const el = document.querySelector('.text-prompt');
    if (!el || getComputedStyle(el).display === 'none') return null;
    const scale = Number(getComputedStyle(document.documentElement).getPropertyValue('--scale')) || 1;
    const box = el.getBoundingClientRect();
    return {
      text: el.querySelector('p')!.textContent,
      fontPx: parseFloat(getComputedStyle(el.querySelector('p')!).fontSize) * scale,
      top: box.top,
      bottom: box.bottom,
      headerBottom: document.querySelector('.site-header')!.getBoundingClientRect().bottom,
      links: Array.from(el.querySelectorAll('a'), (a) => {
        const r = a.getBoundingClientRect();
        return { label: a.textContent, width: r.width, height: r.height };
      }),
    };
  });
}

describe('the large-text prompt', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it.each([768, 1280, 1800])('at %i px the standard page offers the large-text layout, readable and large enough to tap', async (width) => {
    const w = await openPage(browser, { width, height: 1024 });
    try {
      for (const url of ['/', '/lxwm/index', '/search?q=%E8%BF%91%E8%A7%86']) {
        await gotoHydrated(w.page, svc.url + url);
        const shown = await prompt(w.page);
        expect(shown, url).not.toBeNull();
        expect(shown!.fontPx, url).toBeGreaterThanOrEqual(16);
        expect(shown!.links.map((l) => l.label)).toEqual(['换成长者模式', '保持标准版']);
        for (const link of shown!.links) {
          expect(link.height, `${url} ${link.label}`).toBeGreaterThanOrEqual(44);
          expect(link.width, `${url} ${link.label}`).toBeGreaterThanOrEqual(44);
        }
        // Below the fixed header, not under it; the home banner starts below it.
        expect(shown!.top, url).toBeGreaterThanOrEqual(shown!.headerBottom - 1);
        if (url === '/') {
          const bannerTop = await w.page.evaluate(() => document.querySelector('.carousel')!.getBoundingClientRect().top);
          expect(bannerTop).toBeGreaterThanOrEqual(shown!.bottom - 1);
        }
      }
      expect(consoleProblems(w)).toEqual([]);
    } finally {
      await w.page.context().close();
    }
  });

  it('is not shown where the page is not scaled down (the design’s width and wider, a phone), nor in the large-text mode', async () => {
    for (const width of [1920, 2560, 390]) {
      const w = await openPage(browser, { width, height: 900 });
      await gotoHydrated(w.page, svc.url + '/');
      expect(await prompt(w.page), `${width} px`).toBeNull();
      await w.page.context().close();
    }
    const w = await openPage(browser, { width: 768, height: 1024 });
    await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
    await gotoHydrated(w.page, svc.url + '/');
    expect(await w.page.locator('.text-prompt').count()).toBe(0);
    await w.page.context().close();
  });

  it('taking it turns the large-text mode on; declining it is remembered, and it stays away on every page', async () => {
    const yes = await openPage(browser, { width: 768, height: 1024 });
    await gotoHydrated(yes.page, svc.url + '/lxwm/index');
    await yes.page.getByRole('link', { name: '换成长者模式' }).click();
    await yes.page.waitForURL(`${svc.url}/lxwm/index`);
    await yes.page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(await yes.page.evaluate(() => document.documentElement.dataset.text)).toBe('large');
    expect(await yes.page.locator('.text-prompt').count()).toBe(0);
    await yes.page.context().close();

    const no = await openPage(browser, { width: 768, height: 1024 });
    try {
      await gotoHydrated(no.page, svc.url + '/lxwm/index');
      await no.page.getByRole('link', { name: '保持标准版' }).click();
      await no.page.waitForURL(`${svc.url}/lxwm/index`);
      await no.page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      expect(await no.page.evaluate(() => document.documentElement.dataset.text)).toBeUndefined();
      expect(await prompt(no.page)).toBeNull();
      // The server keeps the standard mode (no cookie); this browser keeps that a mode was chosen.
      expect((await no.page.context().cookies(svc.url)).find((c) => c.name === TEXT_SIZE_COOKIE)).toBeUndefined();
      expect(await no.page.evaluate((key) => localStorage.getItem(key), TEXT_SIZE_CHOSEN_KEY)).toBe('1');
      await gotoHydrated(no.page, svc.url + '/');
      expect(await prompt(no.page)).toBeNull();
      expect(consoleProblems(no)).toEqual([]);
    } finally {
      await no.page.context().close();
    }
  });
});
