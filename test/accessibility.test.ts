/**
 * Accessibility, measured by axe-core in real Chromium against the built service, with zero
 * violations of WCAG 2.0, 2.1 and 2.2 A and AA and of axe's best practices: every page and the
 * 404 page at a phone's, a laptop's and the design's width and in the large-text mode (长者模式)
 * are checked by the every-page pass (test/every-page-*.test.ts); here, that axe finds what it is
 * asked to, and the states a visitor opens: the phone menu and a header panel. axe measures
 * targets in layout px; test/visual.test.ts measures them as drawn, once the page is scaled.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.js';
import { consoleProblems, gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { type RunningService } from './support/start-service.js';

describe('accessibility (axe-core), in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('axe reports what it is asked to find: a picture without a text alternative, a target too small', async () => {
    const w = await openPage(browser, { width: 1280, height: 800 });
    await gotoHydrated(w.page, `${svc.url}/lxwm/index`);
    expect(await axeViolations(w.page)).toEqual([]);
    await w.page.evaluate(() => {
      document.querySelector('main img')!.removeAttribute('alt');
      // Two links of 10 × 10 px side by side.
      const row = document.createElement('p');
      row.innerHTML = '<a href="/jtjj/qywh">文</a><a href="/jtjj/fzlc">史</a>';
      for (const a of Array.from(row.children) as HTMLElement[])
        Object.assign(a.style, { display: 'inline-block', width: '10px', height: '10px', overflow: 'hidden', fontSize: '8px' });
      document.querySelector('main')!.append(row);
    });
    const found = (await axeViolations(w.page)).map((v) => v.split(' ')[0]);
    expect(found).toEqual(expect.arrayContaining(['image-alt', 'target-size']));
    await w.page.context().close();
  });

  it('the phone menu, open, has no violation', async () => {
    const w = await openPage(browser, { width: 390, height: 844 });
    await gotoHydrated(w.page, `${svc.url}/hzhf/tszl`);
    await w.page.locator('.menu-toggle').click();
    await expect.poll(() => w.page.locator('#site-nav').isVisible()).toBe(true);
    expect(await w.page.locator('.nav-sub-link').count()).toBeGreaterThan(0);
    await w.page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    expect(await axeViolations(w.page)).toEqual([]);
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });

  it('each header panel, open, has no violation', async () => {
    const w = await openPage(browser, { width: 1920, height: 1080 });
    await gotoHydrated(w.page, `${svc.url}/lxwm/index`);
    const found: string[] = [];
    const items = w.page.locator('.nav-link[aria-controls]');
    const count = await items.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const item = items.nth(i);
      await item.hover();
      const panel = w.page.locator(`#${(await item.getAttribute('aria-controls'))!}`);
      await expect.poll(() => panel.getAttribute('data-open')).toBe('true');
      await expect.poll(() => panel.isVisible()).toBe(true);
      // Opened, not opening: axe reads colours as drawn.
      await w.page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      const label = await item.textContent();
      found.push(...(await axeViolations(w.page)).map((v) => `${label}: ${v}`));
    }
    expect(found).toEqual([]);
    expect(consoleProblems(w)).toEqual([]);
    await w.page.context().close();
  });
});
