/**
 * Focus as a keyboard user meets it (WCAG 2.4.7, 2.4.11, 1.4.11): tabbing through a page forward
 * and back, each control focused is drawn whole in the window, clear of the fixed header, and its
 * ring (the outline) stands out from what is drawn around it by at least 3:1. No test runner here:
 * the every-page pass and test/accessibility.test.ts use it.
 */
import type { Page } from 'playwright-core';
import { installInPage, type InPageWindow } from './in-page.js';

/** The most Tab presses one way through a page: more means focus goes round without end, or the page is far longer than any here. */
const MOST_STOPS = 400;

/** What is wrong with the focused element as drawn now, one line each (none when nothing is focused). */
function focusedFaults(): string[] {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body || el === document.documentElement) return [];
  const name = `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} 「${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 12)}」`;
  const faults: string[] = [];
  const box = el.getBoundingClientRect();
  const header = document.querySelector('.site-header');
  const fixedHeader = header && getComputedStyle(header).position === 'fixed' ? header : null;
  const where = `${Math.round(box.left)},${Math.round(box.top)} to ${Math.round(box.right)},${Math.round(box.bottom)}`;
  if (box.top < -1 || box.bottom > innerHeight + 1 || box.left < -1 || box.right > innerWidth + 1)
    faults.push(`${name}: not whole in the window (${where})`);
  else {
    // Drawn on top at its middle and just inside each side's middle (a rounded corner is not the
    // control's): nothing (the fixed header) over it.
    const inset = Math.min(3, box.width / 4, box.height / 4);
    const [midX, midY] = [(box.left + box.right) / 2, (box.top + box.bottom) / 2];
    for (const [x, y] of [
      [midX, midY],
      [box.left + inset, midY],
      [box.right - inset, midY],
      [midX, box.top + inset],
      [midX, box.bottom - inset],
    ]) {
      const hit = document.elementFromPoint(x!, y!);
      if (hit && hit !== el && !el.contains(hit) && !hit.contains(el)) {
        faults.push(`${name}: under ${hit.closest('header') ? 'the header' : `${hit.tagName.toLowerCase()}.${hit.className}`} (${where})`);
        break;
      }
    }
  }
  // A link stretched over its card or row (its ::after covers it) is ringed by that box.
  let ringed: Element = el;
  if (el.classList.contains('stretched-link') && getComputedStyle(el).outlineStyle === 'none') {
    for (let up = el.parentElement; up; up = up.parentElement)
      if (getComputedStyle(up).position !== 'static') {
        ringed = up;
        break;
      }
  }
  const cs = getComputedStyle(ringed);
  // Chromium reports the outline's width and offset as drawn (the page's zoom applied, snapped to pixels).
  const width = parseFloat(cs.outlineWidth);
  if (cs.outlineStyle === 'none' || width < 2) {
    faults.push(`${name}: no ring of 2 px (outline ${cs.outlineStyle} ${cs.outlineWidth})`);
    return faults;
  }
  const offset = parseFloat(cs.outlineOffset);
  const rbox = ringed.getBoundingClientRect();
  // The ring's middle, on each side.
  const out = offset + width / 2;
  const ring = {
    left: rbox.left - offset - width,
    top: rbox.top - offset - width,
    right: rbox.right + offset + width,
    bottom: rbox.bottom + offset + width,
  };
  // Cut by a scrolling or clipping box around it.
  for (let a = ringed.parentElement; a && a !== document.body; a = a.parentElement) {
    const acs = getComputedStyle(a);
    if (acs.overflowX === 'visible' && acs.overflowY === 'visible') continue;
    const r = a.getBoundingClientRect();
    if (ring.left < r.left - 0.5 || ring.top < r.top - 0.5 || ring.right > r.right + 0.5 || ring.bottom > r.bottom + 0.5) {
      faults.push(`${name}: ring cut by ${a.tagName.toLowerCase()}.${a.className}`);
      break;
    }
  }
  const { contrastRatio: ratio, rgbaOf: rgba, over } = (window as unknown as InPageWindow).inPage;
  /**
   * The colours that may be drawn at a point around the ring: the backgrounds there, top down, until
   * one is opaque (a colour, or a gradient with an opaque stop: each of its stops may be the one
   * drawn, a translucent layer over each opaque one), those above blended over it; 'picture' where
   * a picture is drawn there (its colours are not known here).
   */
  const backdrop = (x: number, y: number, inset: boolean): number[][] | 'picture' => {
    let above: number[][] = [[0, 0, 0, 0]];
    for (const under of document.elementsFromPoint(x, y)) {
      const picture = under instanceof HTMLImageElement || under instanceof HTMLVideoElement || under instanceof SVGElement;
      // A ring drawn inside the control lies on the control's own background and pictures.
      if (under === ringed ? !inset : ringed.contains(under) && !(inset && picture)) continue;
      if (picture) return 'picture';
      const ucs = getComputedStyle(under);
      if (/url\(/.test(ucs.backgroundImage)) return 'picture';
      const colours = [ucs.backgroundColor, ...(ucs.backgroundImage.match(/rgba?\([^)]+\)/g) ?? [])].map(rgba).filter((c) => c[3] > 0);
      const opaque = colours.filter((c) => c[3] >= 0.99);
      const here =
        opaque.length > 0 ? [...opaque, ...colours.filter((c) => c[3] < 0.99).flatMap((t) => opaque.map((o) => over(t, o)))] : colours;
      if (here.length === 0) continue;
      if (opaque.length > 0) return above.flatMap((a) => here.map((h) => over(a, h)));
      // Translucent only: it lies over whatever is further down.
      above = above.flatMap((a) => here.map((h) => [...over(a, h).slice(0, 3), 1 - (1 - a[3]!) * (1 - h[3])]));
    }
    return above.map((a) => over(a, [255, 255, 255, 1]));
  };
  const colour = rgba(cs.outlineColor);
  const inset = offset + width <= 0;
  const points = [
    [rbox.left - out, (rbox.top + rbox.bottom) / 2],
    [rbox.right + out, (rbox.top + rbox.bottom) / 2],
    [(rbox.left + rbox.right) / 2, rbox.top - out],
    [(rbox.left + rbox.right) / 2, rbox.bottom + out],
  ];
  let worst = Infinity;
  for (const [x, y] of points) {
    if (x! < 0 || y! < 0 || x! >= innerWidth || y! >= innerHeight) continue;
    // A side hidden under the fixed header (a card's ring above its focused title) is not judged.
    if (fixedHeader && !fixedHeader.contains(ringed) && fixedHeader.contains(document.elementFromPoint(x!, y!))) continue;
    const under = backdrop(x!, y!, inset);
    if (under === 'picture') continue;
    for (const c of under) worst = Math.min(worst, ratio(colour, c));
  }
  if (worst < 3) faults.push(`${name}: ring ${cs.outlineColor} at ${worst.toFixed(2)}:1 against what is around it`);
  return faults;
}

/** What is wrong with the element focused now, as drawn (whole in the window, nothing over it, its ring whole and standing out), one line each. */
export function focusedNow(page: Page): Promise<string[]> {
  return installInPage(page).then(() => page.evaluate(focusedFaults));
}

/** Where focus is after a press: the focused element's faults, and whether it is in the part walked. */
interface Stop {
  faults: string[];
  /** Focus is on a control inside the part walked (not on the page itself, nor outside the part). */
  inside: boolean;
  /** The focused element's place among the page's elements (-1: none), to tell when focus comes round. */
  at: number;
}

/**
 * Tabs through `part` of the page (`'main'`: its main content, the header's and footer's
 * controls left to one walk of their own; `'page'`: everything), forward until focus leaves it or
 * comes round to the first control again, then back (Shift+Tab) until it leaves it at the top, and
 * what is wrong with each control as it is focused (focusedFaults), each fault once.
 */
export async function focusFaults(page: Page, part: 'main' | 'page'): Promise<string[]> {
  const found = new Set<string>();
  // The check is installed once and called after each press, in the frame the browser scrolled in.
  await installInPage(page);
  await page.evaluate(`window.focusedFaults = ${focusedFaults.toString()}`);
  await page.evaluate((part) => {
    // Where each box that scrolls is: focus scrolls them (a row of tabs to its focused tab), and
    // the checks after see them as the visitor left them.
    const w = window as Window & { scrolledBefore?: [Element, number, number][]; scrollSeen?: WeakMap<Element, string> };
    w.scrolledBefore = Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.scrollLeft !== 0 || el.scrollTop !== 0 || el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight)
      .map((el) => [el, el.scrollLeft, el.scrollTop]);
    w.scrollSeen = new WeakMap(w.scrolledBefore.map(([el, left, top]) => [el, `${left},${top}`]));
    scrollTo(0, 0);
    const main = document.querySelector<HTMLElement>('main');
    // Focus just before the part: on main itself (it takes focus from the skip link), or nowhere.
    if (part === 'main' && main) main.focus({ preventScroll: true });
    else (document.activeElement as HTMLElement | null)?.blur();
  }, part);
  const press = async (key: string): Promise<Stop> => {
    await page.keyboard.press(key);
    return page.evaluate(async (part) => {
      // Where focus scrolled the page or a box around the focused control, the page answers the
      // scroll event, which comes with the next frame (a row of tabs fades its ends, the home
      // header takes its colour): two frames are let pass, and a React render between them. Focus
      // scrolls nothing else, and what the page does on focus it does within the press, so a press
      // that scrolled nothing (most) is judged at once (docs/decisions/074).
      const w = window as Window & { scrollSeen?: WeakMap<Element, string> };
      const seen = w.scrollSeen ?? new WeakMap<Element, string>();
      let scrolled = false;
      for (let el = document.activeElement; el; el = el.parentElement) {
        const now = `${el.scrollLeft},${el.scrollTop}`;
        // html's offsets are the page's; a box not seen before had not scrolled.
        if (now !== (seen.get(el) ?? '0,0')) scrolled = true;
        seen.set(el, now);
      }
      if (scrolled) await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      // Then whatever focus set moving (a header panel opening, the one before closing, a ring's
      // colour) is brought to its end: the control is judged as drawn once still. Asking for the
      // animations brings the styles up to date, so a transition focus starts is among them;
      // finished at once rather than waited for (even a transition of 0.01 ms ends with a frame).
      for (const moving of document.getAnimations())
        if (moving.effect?.getComputedTiming().iterations !== Infinity && moving.playState === 'running') moving.finish();
      const active = document.activeElement;
      const at = active ? Array.prototype.indexOf.call(document.getElementsByTagName('*'), active) : -1;
      const scope = part === 'main' ? document.querySelector('main') : document.body;
      // Past the page's last control the browser takes the focus (its own controls, even where
      // it draws none): the page keeps an active element, but it is not focused.
      const inside = !!active && document.hasFocus() && active.matches(':focus') && active !== scope && !!scope?.contains(active);
      const check = (window as unknown as { focusedFaults: () => string[] }).focusedFaults;
      return { faults: inside ? check() : [], inside, at } satisfies Stop;
    }, part);
  };
  let first = -1;
  let stops = 0;
  for (const [key, way] of [
    ['Tab', 'forward'],
    ['Shift+Tab', 'back'],
  ] as const) {
    let previous = -1;
    for (let here = 0; ; here++) {
      if (here === MOST_STOPS) {
        found.add(`${way}: still inside after ${MOST_STOPS} stops`);
        break;
      }
      const stop = await press(key);
      // Out of the part, round to the first control again, or not moved (on its way out of the page).
      if (!stop.inside || (way === 'forward' && stop.at === first) || stop.at === previous) break;
      for (const f of stop.faults) found.add(`${way}: ${f}`);
      if (first === -1) first = stop.at;
      previous = stop.at;
      stops++;
    }
  }
  if (stops === 0 && part === 'page') found.add('no control takes the focus');
  // Left as found: nothing focused, at the top, each box scrolled as it was, for the checks after.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    const w = window as Window & { scrolledBefore?: [Element, number, number][] };
    for (const [el, left, top] of w.scrolledBefore ?? []) el.scrollTo(left, top);
    delete w.scrolledBefore;
    scrollTo(0, 0);
  });
  return [...found];
}
