/**
 * Controls a visitor can reach (test/controls.test.ts and the every-page pass): a link or button
 * drawn under something else, the open header search's parts covered, a row of tabs that
 * overflows without showing it.
 */
import type { Page } from 'playwright-core';
import { installInPage, type InPageWindow } from './in-page.js';

/**
 * Links and buttons of the page (the header's, the page's, the footer's) whose middle, when
 * scrolled into the window below the fixed header (and above a bar kept at its foot), is drawn
 * over by another element. One line each.
 */
export async function coveredControls(page: Page) {
  await installInPage(page);
  return page.evaluate(async () => {
    const { keptBars, edgeOf, pageScroller } = (window as unknown as InPageWindow).inPage;
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
    // A bar kept at the window's foot (a phone's call kept on screen) is its edge there while it
    // is at the foot, as the header is at the top.
    const bars = keptBars();
    const scroller = pageScroller();
    for (let y = 0; ; y += innerHeight * 0.6) {
      scroller.scrollTo(0, y);
      // A frame, or a fifth of a second where the page draws none (it would wait forever).
      await new Promise((done) => (requestAnimationFrame(done), setTimeout(done, 200)));
      const top = header ? header.getBoundingClientRect().bottom : 0;
      const atFoot = bars.filter((bar) => edgeOf(bar) === 'foot');
      const bottom = Math.min(innerHeight, ...atFoot.map((bar) => bar.getBoundingClientRect().top));
      for (const control of controls) {
        const r = control.getBoundingClientRect();
        const [x, cy] = [r.left + r.width / 2, r.top + r.height / 2];
        // The fixed header's own controls at the top of the page; the others in the window, between the header and a bar at its foot.
        const inHeader = header?.contains(control) ?? false;
        const inBar = atFoot.some((bar) => bar.contains(control));
        if (inHeader ? y > 0 : !inBar && (cy < top + 2 || cy > bottom - 2)) continue;
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
export function coveredSearch(page: Page) {
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
export function tabRowFaults(page: Page) {
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
