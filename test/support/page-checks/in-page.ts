/**
 * What the checks' code run in the page shares, written once: plain functions (no closure, no
 * import), which Node code calls directly and `installInPage` gives the page, where a check's own
 * `page.evaluate` cannot import them.
 */
import type { Page } from 'playwright-core';

/** WCAG's contrast ratio of two sRGB colours (channels 0 to 255; an alpha after them is not read). */
export function contrastRatio(x: readonly number[], y: readonly number[]): number {
  const luminance = (c: readonly number[]) =>
    [0, 1, 2]
      .map((i) => c[i]! / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
      .reduce((n, v, i) => n + v * [0.2126, 0.7152, 0.0722][i]!, 0);
  const [a, b] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (a + 0.05) / (b + 0.05);
}

/** A colour as getComputedStyle gives it (`rgb(…)`, `rgba(…)`): its channels (0 to 255) and alpha. */
function rgbaOf(colour: string): [number, number, number, number] {
  const [r = 0, g = 0, b = 0, a = 1] = (colour.match(/[\d.]+/g) ?? []).map(Number);
  return [r, g, b, a];
}

/** `top` drawn over the opaque `ground`, its alpha blended in: an opaque colour. */
function over(top: readonly number[], ground: readonly number[]): [number, number, number, number] {
  const [r, g, b] = [0, 1, 2].map((i) => top[i]! * top[3]! + ground[i]! * (1 - top[3]!)) as [number, number, number];
  return [r, g, b, 1];
}

/** The page's bars kept at an edge of the window by design: fixed, or sticky to the bottom. */
function keptBars(): Element[] {
  return Array.from(document.querySelectorAll('body *')).filter((el) => {
    const cs = getComputedStyle(el);
    return cs.position === 'fixed' || (cs.position === 'sticky' && cs.bottom !== 'auto');
  });
}

/**
 * Where a kept bar is drawn now: at the window's top (the header), at its foot (a phone's call kept
 * on screen), or at neither (a sticky bar past the end of its part of the page is back in its
 * place in the flow; a bar not drawn).
 */
function edgeOf(bar: Element): 'top' | 'foot' | undefined {
  const r = bar.getBoundingClientRect();
  if (r.height === 0) return undefined;
  if (r.top <= 1) return 'top';
  return r.bottom >= innerHeight - 1 && r.top > innerHeight / 2 ? 'foot' : undefined;
}

/** What scrolls the page: the document, or in the transform mode the app's root (client/scroll.ts says the same). */
function pageScroller(): Element {
  return document.documentElement.dataset.scale === 'transform' ? document.getElementById('root')! : document.scrollingElement!;
}

/** The helpers as the page holds them once installed: `(window as InPageWindow).inPage`. */
export interface InPageWindow {
  inPage: {
    contrastRatio: typeof contrastRatio;
    rgbaOf: typeof rgbaOf;
    over: typeof over;
    keptBars: typeof keptBars;
    edgeOf: typeof edgeOf;
    pageScroller: typeof pageScroller;
  };
}

/** Gives the document in `page` the helpers above as `window.inPage` (again after each navigation). */
export function installInPage(page: Page): Promise<void> {
  return page.evaluate(
    `window.inPage = { ${[contrastRatio, rgbaOf, over, keptBars, edgeOf, pageScroller].map((helper) => `${helper.name}: ${helper.toString()}`).join(', ')} }`,
  );
}
