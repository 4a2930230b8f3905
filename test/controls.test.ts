/**
 * Controls a visitor can reach, measured in real Chromium against the built service on every
 * page and the 404 page, at a laptop's, a tablet's and a phone's width in the standard and the
 * large-text mode: no link or button lies under something else drawn over it (the home
 * banner's arrows and dots under the figures card), and a row of tabs wider than the screen
 * shows that it scrolls (its current tab in view, a fade and a button at each end with more);
 * the header's search, open with its suggestions, has nothing drawn over its parts.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleProblems,
  gotoHydrated,
  openHeaderSearch,
  openPage,
  startSiteAndChromium,
  stopSiteAndChromium,
  expectNothingFound,
  onEach,
} from './support/browser.js';
import { sampleUrl, EVERY_PAGE } from './support/sample-urls.js';
import { type RunningService } from './support/start-service.js';

const MODES = [
  { width: 1280, large: false },
  { width: 1280, large: true },
  { width: 768, large: false },
  { width: 768, large: true },
  { width: 390, large: false },
  { width: 390, large: true },
];

/**
 * Links and buttons of the page (the header's, the page's, the footer's) whose middle, when
 * scrolled into the window below the fixed header, is drawn over by another element. One line each.
 */
function coveredControls(page: Page) {
  return page.evaluate(async () => {
    const found = new Set<string>();
    const name = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} 「${el.textContent?.trim().slice(0, 12)}」`;
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      // A closed <details> keeps its content laid out but does not draw it.
      if (r.width === 0 || r.height === 0 || el.closest('[hidden], [inert], .sr-only, .skip-link, details:not([open]) > :not(summary)'))
        return false;
      const cs = getComputedStyle(el);
      return cs.visibility !== 'hidden' && cs.pointerEvents !== 'none';
    };
    const controls = Array.from(
      document.querySelectorAll('header a[href], header button, main a[href], main button, footer a[href]'),
    ).filter(shown);
    const header = document.querySelector('.site-header');
    const scroller = document.documentElement.dataset.scale === 'transform' ? document.getElementById('root')! : document.scrollingElement!;
    for (let y = 0; ; y += innerHeight * 0.6) {
      scroller.scrollTo(0, y);
      await new Promise(requestAnimationFrame);
      const top = header ? header.getBoundingClientRect().bottom : 0;
      for (const control of controls) {
        const r = control.getBoundingClientRect();
        const [x, cy] = [r.left + r.width / 2, r.top + r.height / 2];
        // The fixed header's own controls at the top of the page; the others in the window, below the header.
        const inHeader = header?.contains(control) ?? false;
        if (inHeader ? y > 0 : cy < top + 2 || cy > innerHeight - 2) continue;
        if (x < 1 || x > innerWidth - 1) continue;
        const hit = document.elementFromPoint(x, cy);
        if (!hit || control.contains(hit) || hit.contains(control)) continue;
        // A tab at the end of a row that scrolls lies under the row's button until it is scrolled to.
        if (hit.matches('.tabs-scroll') && hit.parentElement!.contains(control)) continue;
        found.add(`${name(control)} under ${name(hit)}`);
      }
      if (y + innerHeight >= scroller.scrollHeight) break;
    }
    scroller.scrollTo(0, 0);
    return [...found];
  });
}

/** The open header search's field, button and suggestions that something else is drawn over. One line each. */
function coveredSearch(page: Page) {
  return page.evaluate(() => {
    const found: string[] = [];
    const parts = document.querySelectorAll('.site-header .search-input, .site-header .search-submit, .site-header .search-option');
    for (const part of Array.from(parts)) {
      // A suggestion past the list's height is reached by scrolling the list.
      if (part.matches('.search-option')) part.scrollIntoView({ block: 'nearest' });
      const r = part.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || part.contains(hit) || hit.contains(part)) continue;
      found.push(
        `${part.className} 「${part.textContent?.trim().slice(0, 12)}」 under ${hit.tagName.toLowerCase()}.${[...hit.classList].join('.')}`,
      );
    }
    return found;
  });
}

/** How a row of section tabs that overflows shows it: what is wrong, one line each. */
function tabRowFaults(page: Page) {
  return page.evaluate(() => {
    const nav = document.querySelector<HTMLElement>('.section-tabs');
    const ul = nav?.querySelector('ul');
    if (!nav || !ul || ul.scrollWidth <= ul.clientWidth + 1) return { overflows: false, faults: [] as string[] };
    const faults: string[] = [];
    const row = ul.getBoundingClientRect();
    const current = ul.querySelector('[aria-current]')?.getBoundingClientRect();
    if (current && (current.left < row.left - 1 || current.right > row.right + 1)) faults.push('the current tab is out of view');
    const atStart = ul.scrollLeft <= 1;
    const atEnd = ul.scrollLeft + ul.clientWidth >= ul.scrollWidth - 1;
    for (const [side, more] of [
      ['start', !atStart],
      ['end', !atEnd],
    ] as const) {
      const fade = getComputedStyle(nav, side === 'start' ? '::before' : '::after').content !== 'none';
      const button = nav.querySelector<HTMLElement>(`.tabs-scroll.${side}`);
      const box = button?.getBoundingClientRect();
      const visible = !!box && box.width > 0 && getComputedStyle(button!).display !== 'none';
      if (more && !fade) faults.push(`no fade at the ${side}, which has more`);
      if (!more && fade) faults.push(`a fade at the ${side}, which has no more`);
      if (more && (!visible || box.width < 44 || box.height < 44)) faults.push(`no button of 44 px at the ${side}, which has more`);
      if (!more && visible) faults.push(`a button at the ${side}, which has no more`);
    }
    return { overflows: true, faults };
  });
}

describe('controls, in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it.each(MODES)(
    'every page at $width px (large text: $large): no link or button under another, and a row of tabs that scrolls shows it',
    (mode) =>
      expectNothingFound(browser, svc.url, { ...mode, height: mode.width < 500 ? 844 : 1024 }, async (page) => [
        ...(await onEach(page, svc.url, EVERY_PAGE, async () => [
          ...(await coveredControls(page)),
          ...(await tabRowFaults(page)).faults.map((f) => `tabs: ${f}`),
        ])),
        // The header's search open with its suggestions, over the home banner and over the search page.
        ...(await onEach(page, svc.url, ['/', sampleUrl('/search')], async () => {
          await openHeaderSearch(page, '白内障');
          return (await coveredSearch(page)).map((c) => `search: ${c}`);
        })),
      ]),
    180_000,
  );

  it('a row of tabs wider than a phone scrolls by its buttons to either end, its fades following', async () => {
    const w = await openPage(browser, { width: 390, height: 844 });
    await gotoHydrated(w.page, `${svc.url}/jtjj/qywh`);
    const row = await tabRowFaults(w.page);
    expect(row).toEqual({ overflows: true, faults: [] });
    const scrolled = () => w.page.locator('.section-tabs ul').evaluate((ul) => ul.scrollLeft);
    // The first tab is the current one: the row starts at its start.
    expect(await scrolled()).toBe(0);
    const end = w.page.locator('.tabs-scroll.end');
    for (let i = 0; i < 5 && (await end.isVisible()); i++) {
      const before = await scrolled();
      await end.click();
      await expect.poll(scrolled).toBeGreaterThan(before);
      // Until the smooth scroll has come to rest.
      await expect
        .poll(async () => {
          const at = await scrolled();
          await w.page.waitForTimeout(100);
          return (await scrolled()) === at;
        })
        .toBe(true);
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
