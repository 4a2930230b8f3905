/**
 * Controls a visitor can reach, measured in real Chromium against the built service (every page
 * and the 404 page, at a laptop's, a tablet's and a phone's width in the standard and the
 * large-text mode, are the every-page pass's: test/every-page-*.test.ts; the checks are
 * test/support/page-checks/controls.ts): no link or button lies under something else drawn over it (the home
 * banner's arrows and dots under the figures card), and a row of tabs wider than the screen
 * shows that it scrolls (its current tab in view, a fade and a button at each end with more);
 * the header's search, open with its suggestions, has nothing drawn over its parts. Here: a row
 * of tabs scrolled by its buttons, and that the checks find what they should.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleProblems, gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { coveredControls, tabRowFaults } from './support/page-checks/controls.js';
import { type RunningService } from './support/start-service.js';

describe('controls, in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('a row of tabs wider than a phone scrolls by its buttons to either end, its fades following', async () => {
    const w = await openPage(browser, { width: 390, height: 844 });
    await gotoHydrated(w.page, `${svc.url}/jtjj/qywh`);
    const row = await tabRowFaults(w.page);
    expect(row).toEqual({ overflows: true, faults: [] });
    const tabs = w.page.locator('.section-tabs ul');
    const scrolled = () => tabs.evaluate((ul) => ul.scrollLeft);
    // The first tab is the current one: the row starts at its start.
    expect(await scrolled()).toBe(0);
    const end = w.page.locator('.tabs-scroll.end');
    for (let i = 0; i < 5 && (await end.isVisible()); i++) {
      const before = await scrolled();
      // Until the smooth scroll has come to rest: the row's scrollend event, listened for before the click.
      await tabs.evaluate((ul) => {
        (ul as HTMLElement & { rested?: Promise<void> }).rested = new Promise((done) =>
          ul.addEventListener('scrollend', () => done(), { once: true }),
        );
      });
      await end.click();
      await tabs.evaluate((ul) => (ul as HTMLElement & { rested?: Promise<void> }).rested);
      expect(await scrolled()).toBeGreaterThan(before);
    }
    await expect.poll(() => end.isVisible()).toBe(false);
    expect((await tabRowFaults(w.page)).faults).toEqual([]);
    await w.page.locator('.tabs-scroll.start').click();
    await expect.poll(scrolled).toBe(0);
    await expect.poll(async () => (await tabRowFaults(w.page)).faults).toEqual([]);
    // The last tab's page shows its own tab, scrolled into view.
    await gotoHydrated(w.page, `${svc.url}/jtjj/qyhcp`);
    expect(await tabRowFaults(w.page)).toEqual({ overflows: true, faults: [] });
    expect(await scrolled()).toBeGreaterThan(0);
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });

  it('finds what it is asked to find: a button drawn under a card, a row of tabs that hides its end', async () => {
    const w = await openPage(browser, { width: 390, height: 844 });
    await gotoHydrated(w.page, `${svc.url}/jtjj/qywh`);
    await w.page.evaluate(() => {
      const over = document.createElement('div');
      Object.assign(over.style, { position: 'fixed', inset: '0', zIndex: '50' });
      document.querySelector('main')!.append(over);
      document.querySelector('.tabs-scroll.end')!.setAttribute('hidden', '');
    });
    expect((await coveredControls(w.page)).some((c) => / under div\. /.test(c))).toBe(true);
    expect((await tabRowFaults(w.page)).faults).toContain('no button of 44 px at the end, which has more');
    await w.page.context().close();
  });
});
