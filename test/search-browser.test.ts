/**
 * The search as a visitor uses it, in real Chromium against the built service: the header's field
 * at a laptop's width (behind its 搜索 button) and in a phone's menu, with suggestions in the order
 * of the search's results, chosen by keyboard; Enter without a choice opens the search page; the
 * search page and the header's form without JavaScript; axe over the open suggestions; and markup
 * typed into the field stays text.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.js';
import { consoleProblems, gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { type RunningService } from './support/start-service.js';

/** Types into the focused field like a person (one key at a time), then waits for the suggestions. */
async function typeAndWaitForSuggestions(page: Page, field: string, text: string): Promise<void> {
  await page.locator(field).pressSequentially(text, { delay: 40 });
  await page.locator(`${field}-list [role="option"]`).first().waitFor({ state: 'visible' });
}

describe('search in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => {
    ({ svc, browser } = await startSiteAndChromium());
  }, 90_000);
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it('at 1280 px: the 搜索 button opens the field, typing shows suggestions, the keyboard chooses one and lands on its page', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    await gotoHydrated(page, `${svc.url}/`);
    const toggle = page.locator('summary.search-toggle');
    expect(await toggle.isVisible()).toBe(true);
    await toggle.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'header-search');
    await typeAndWaitForSuggestions(page, '#header-search', '白內障');
    const field = page.locator('#header-search');
    expect(await field.getAttribute('role')).toBe('combobox');
    expect(await field.getAttribute('aria-expanded')).toBe('true');
    expect(await field.getAttribute('aria-controls')).toBe('header-search-list');
    const first = page.locator('#header-search-list [role="option"]').first();
    expect(await first.innerText()).toContain('白内障');
    await page.screenshot({ path: `${process.env.TMPDIR ?? '/tmp'}/search-1280.png` });
    await page.keyboard.press('ArrowDown');
    expect(await field.getAttribute('aria-activedescendant')).toBe('header-search-list-0');
    expect(await first.getAttribute('aria-selected')).toBe('true');
    // The suggestion's page, as the API names it.
    const answer = (await (await fetch(`${svc.url}/api/search?q=${encodeURIComponent('白內障')}&pageSize=6`)).json()) as {
      data: { items: { url: string }[] };
    };
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname + url.search === answer.data.items[0]!.url);
    // The panel closed behind the visitor: in the effect that follows the new page's render, which
    // on a busy machine may come a moment after the address changed.
    await page.waitForFunction(() => !document.querySelector<HTMLDetailsElement>('details.search-entry')!.open, undefined, {
      timeout: 5_000,
    });
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it('at 390 px: the menu has the field; a doctor typed in pinyin is suggested and chosen with the keyboard', async () => {
    const w = await openPage(browser, { width: 390, height: 844 });
    const { page } = w;
    await gotoHydrated(page, `${svc.url}/hzhf/kpzs?id=6&name=${encodeURIComponent('科普知识')}`);
    expect(await page.locator('summary.search-toggle').isVisible()).toBe(false);
    await page.locator('.menu-toggle').click();
    await page.locator('#menu-search').focus();
    await typeAndWaitForSuggestions(page, '#menu-search', 'chen li');
    await page.screenshot({ path: `${process.env.TMPDIR ?? '/tmp'}/search-390.png` });
    const first = page.locator('#menu-search-list [role="option"]').first();
    expect(await first.innerText()).toContain('陈立衡');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/zjxz/detail' && url.searchParams.get('id') === '1');
    await page.locator('h1', { hasText: '陈立衡' }).waitFor();
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it("the suggestions are the search's first six, in its order: 近视 suggests the 近视激光手术 page first", async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    await gotoHydrated(page, `${svc.url}/`);
    await page.locator('summary.search-toggle').click();
    await typeAndWaitForSuggestions(page, '#header-search', '近视');
    const answer = (await (await fetch(`${svc.url}/api/search?q=${encodeURIComponent('近视')}`)).json()) as {
      data: { items: { title: string }[] };
    };
    const best = answer.data.items.slice(0, 6).map((i) => i.title);
    expect(best[0]).toBe('近视激光手术');
    // The list answers the last words typed (近, then 近视); typeset with word joiners and no-break spaces.
    await expect
      .poll(async () =>
        (await page.locator('#header-search-list .search-option-title').allInnerTexts()).map((t) =>
          t.replaceAll('\u2060', '').replaceAll('\u00a0', ' '),
        ),
      )
      .toEqual(best);
    await page.screenshot({ path: `${process.env.TMPDIR ?? '/tmp'}/search-named-1280.png` });
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  it('Enter without a suggestion chosen opens the search page; Escape closes the list, then the panel', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    await gotoHydrated(page, `${svc.url}/lxwm/index`);
    await page.locator('summary.search-toggle').click();
    await typeAndWaitForSuggestions(page, '#header-search', '飞秒');
    await page.keyboard.press('Escape');
    expect(await page.locator('#header-search').getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('#header-search-list').isVisible()).toBe(false);
    await page.keyboard.press('Escape');
    expect(await page.locator('details.search-entry').evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('search-toggle');
    // Open again: the field (a search field, which Escape also empties) takes new words, and Enter searches them.
    await page.keyboard.press('Enter');
    await page.locator('#header-search').fill('飞秒');
    await page.locator('#header-search').press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === '飞秒');
    expect(await page.title()).toBe('搜索');
    expect(await page.locator('.search-result').count()).toBeGreaterThan(0);
    expect(await page.locator('.search-result mark').first().innerText()).toBe('飞秒');
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });

  // Several pages without JavaScript, each drawn anew: longer than one test's default on a busy machine.
  it(
    'without JavaScript: the header form opens and submits, and the search page shows results by kind, paged',
    { timeout: 90_000 },
    async () => {
      const w = await openPage(browser, { width: 1280, height: 900, javaScriptEnabled: false });
      const { page } = w;
      await page.goto(`${svc.url}/`);
      await page.locator('summary.search-toggle').click();
      await page.locator('#header-search').fill('眼');
      await page.locator('#header-search').press('Enter');
      await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === '眼');
      expect(await page.locator('.search-result').count()).toBe(10);
      // The kinds are links; the pages too.
      await page.locator('.filter-tabs a', { hasText: '专家医生' }).click();
      await page.waitForURL((url) => url.searchParams.get('kind') === 'expert');
      expect(await page.locator('.search-result-kind').allInnerTexts()).toEqual(expect.arrayContaining(['专家医生']));
      expect(new Set(await page.locator('.search-result-kind').allInnerTexts())).toEqual(new Set(['专家医生']));
      await page.locator('.pagination a', { hasText: '下一页' }).click();
      await page.waitForURL((url) => url.searchParams.get('page') === '2');
      expect(await page.locator('.search-result').count()).toBeGreaterThan(0);
      expect(consoleProblems(w)).toEqual([]);
      await page.context().close();
    },
  );

  it('axe finds no violation with the suggestions open, at 1280 and 390 px', async () => {
    for (const width of [1280, 390]) {
      const w = await openPage(browser, { width, height: 900 });
      const { page } = w;
      await gotoHydrated(page, `${svc.url}/search?q=${encodeURIComponent('青光眼')}`);
      const field = width === 1280 ? '#header-search' : '#menu-search';
      if (width === 1280) await page.locator('summary.search-toggle').click();
      else await page.locator('.menu-toggle').click();
      await page.locator(field).focus();
      await typeAndWaitForSuggestions(page, field, '青光眼');
      await page.keyboard.press('ArrowDown');
      expect(await axeViolations(page), `${width} px`).toEqual([]);
      expect(consoleProblems(w)).toEqual([]);
      await page.context().close();
    }
  });

  it('markup typed into the field is shown as text, in the suggestions and on the search page', async () => {
    const w = await openPage(browser, { width: 1280, height: 900 });
    const { page } = w;
    const hostile = '<img src=x onerror="window.__pwned=1">白内障';
    await gotoHydrated(page, `${svc.url}/search?q=${encodeURIComponent(hostile)}`);
    expect(await page.locator('.search-page img[src="x"]').count()).toBe(0);
    expect(await page.locator('.search-summary').innerText()).toContain('<img src=x');
    await page.locator('summary.search-toggle').click();
    await page.locator('#header-search').fill(hostile);
    await page.locator('#header-search-list [role="option"]').first().waitFor({ state: 'visible' });
    expect(await page.locator('#header-search-list img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(consoleProblems(w)).toEqual([]);
    await page.context().close();
  });
});
