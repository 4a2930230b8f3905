/**
 * Text that keeps reading when a visitor spaces it out (WCAG 1.4.12: line height 1.5, paragraphs
 * 2 em apart, letters 0.12 em, words 0.16 em), and the spacing the site gives by itself (China's
 * MIIT 适老化 rules: lines at least 1.3 apart, paragraphs further apart than lines, by 1.3 times).
 * No test runner here: the every-page pass and test/accessibility.test.ts use it.
 */
import type { Page } from 'playwright-core';
import { installInPage, type InPageWindow } from './in-page.js';
import { SUMMARIES } from './collisions.js';

/** WCAG 1.4.12's spacing, as a visitor's style sheet or bookmarklet applies it: over the page's own. */
const WCAG_TEXT_SPACING = `* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }
p { margin-bottom: 2em !important; }`;

/**
 * Every part laid out as it is drawn once scrolled to: a part the browser skips while far from the
 * window (content-visibility: auto, docs/decisions/054) keeps, in Chromium, the style and boxes of
 * its last layout until it nears the window again, which no visitor sees.
 */
export const DRAW_EVERY_PART = '* { content-visibility: visible !important; }';

/** Least line height, as a share of the font size, and least step from paragraph to paragraph, as a share of the line's (MIIT). */
const LEAST_LINE = 1.3;
const LEAST_PARAGRAPH = 1.3;

/**
 * Text cut or drawn over other text with WCAG 1.4.12's spacing applied, one line each: text cut by
 * a box that clips (a summary's own line clamp may still end it: its card is a link to the whole),
 * lines of two texts drawn over each other, and text left under a bar at the window's foot
 * (underFootBars). The spacing is taken off again after.
 */
export async function spacedTextFaults(page: Page): Promise<string[]> {
  // A skipped part kept the boxes of its layout before the spacing while its text took the spacing's.
  const style = await page.addStyleTag({ content: `${WCAG_TEXT_SPACING}\n${DRAW_EVERY_PART}` });
  try {
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await installInPage(page);
    const found = await page.evaluate((summaries) => {
      const { keptBars, edgeOf } = (window as unknown as InPageWindow).inPage;
      const found: string[] = [];
      // Shown, and not hidden for the eye only (a label a screen reader reads, clipped to a pixel).
      const shown = (el: Element) => {
        const r = el.getBoundingClientRect();
        return (
          el.checkVisibility({ visibilityProperty: true }) && !el.closest('.sr-only, [hidden], [inert]') && r.width > 1 && r.height > 1
        );
      };
      const label = (el: Element, text: string) =>
        `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} 「${text.trim().slice(0, 12)}」`;
      type Line = { left: number; top: number; right: number; bottom: number; node: Text; el: Element };
      const lines: Line[] = [];
      // A bar kept at the window's top (the header) or foot (a phone's call kept on screen): the
      // page scrolls under it by design, so its text is not drawn over the page's (underFootBars
      // judges what is left under a bar at the foot).
      const edgeBars = keptBars().filter((bar) => edgeOf(bar) !== undefined);
      const inBar = (el: Element) => edgeBars.some((bar) => bar.contains(el));
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
        const el = n.parentElement;
        if (!el || !n.textContent?.trim() || el.closest('script, style') || !shown(el)) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        let rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
        if (rects.length === 0) continue;
        // Cut: past the box of an ancestor that clips (one that scrolls keeps it in reach).
        let cut = false;
        for (let a: Element | null = el; a && a !== document.body && !cut; a = a.parentElement) {
          const cs = getComputedStyle(a);
          const clipX = cs.overflowX === 'hidden' || cs.overflowX === 'clip';
          const clipY = cs.overflowY === 'hidden' || cs.overflowY === 'clip';
          if (!clipX && !clipY) continue;
          const b = a.getBoundingClientRect();
          if (a.matches(summaries) || a.closest(summaries)) {
            // The lines its clamp hides are not drawn: only those it shows can be drawn over others.
            rects = rects.filter((r) => r.top < b.bottom - 1 && r.bottom > b.top + 1);
            break;
          }
          cut = rects.some(
            (r) => (clipX && (r.left < b.left - 1 || r.right > b.right + 1)) || (clipY && (r.top < b.top - 1 || r.bottom > b.bottom + 1)),
          );
          if (cut) found.push(`${label(el, n.textContent)} cut by ${a.tagName.toLowerCase()}.${[...a.classList].join('.')}`);
        }
        if (!inBar(el)) for (const r of rects) lines.push({ left: r.left, top: r.top, right: r.right, bottom: r.bottom, node: n, el });
      }
      // Drawn over each other: two lines of different texts whose glyph boxes overlap by more
      // than a sliver (each line box holds its line's full height, so touching lines overlap by a pixel).
      lines.sort((a, b) => a.top - b.top);
      const seen = new Set<string>();
      for (let i = 0; i < lines.length; i++) {
        const a = lines[i]!;
        for (let j = i + 1; j < lines.length && lines[j]!.top < a.bottom - 2; j++) {
          const b = lines[j]!;
          if (a.node === b.node) continue;
          const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (x <= 2 || y <= Math.min(a.bottom - a.top, b.bottom - b.top) / 4) continue;
          const pair = `${label(a.el, a.node.textContent)} over ${label(b.el, b.node.textContent)}`;
          if (!seen.has(pair)) found.push(pair);
          seen.add(pair);
        }
      }
      return found;
    }, SUMMARIES);
    return [...found, ...(await underFootBars(page))];
  } finally {
    await style.evaluate((el) => (el as HTMLElement).remove());
  }
}

/**
 * Running text spaced closer than MIIT asks, one line each: a paragraph (or a list item, a fact)
 * whose lines are under 1.3 times its type apart, and two paragraphs of one size, the second under
 * the first, whose step (the first's last line to the second's first) is under 1.3 times their
 * line's. (A title over its lead, a name over its title, are not paragraphs of one text.)
 */
export function spacingFaults(page: Page): Promise<string[]> {
  return page.evaluate(
    ([leastLine, leastParagraph]) => {
      const found: string[] = [];
      const label = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} 「${el.textContent.trim().slice(0, 12)}」`;
      const lineOf = (el: Element) => {
        const cs = getComputedStyle(el);
        const size = parseFloat(cs.fontSize);
        return { size, line: cs.lineHeight === 'normal' ? size * 1.2 : parseFloat(cs.lineHeight) };
      };
      const running = Array.from(document.querySelectorAll('main p, main li, main dd, footer p, footer dd')).filter(
        (el) => el.checkVisibility() && el.textContent.trim().length > 0 && !el.closest('.sr-only, [hidden]'),
      );
      for (const el of running) {
        const { size, line } = lineOf(el);
        if (line < size * leastLine - 0.01) found.push(`${label(el)}: lines ${(line / size).toFixed(2)} times the type apart`);
      }
      for (const el of Array.from(document.querySelectorAll('main p + p, footer p + p'))) {
        const before = el.previousElementSibling!;
        if (!el.checkVisibility() || !before.checkVisibility() || !el.textContent.trim() || !before.textContent.trim()) continue;
        const lines = (node: Element) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          return Array.from(range.getClientRects()).filter((r) => r.height > 0);
        };
        const a = lines(before);
        const b = lines(el);
        if (a.length === 0 || b.length === 0 || lineOf(before).size !== lineOf(el).size) continue;
        // Side by side (a row that wraps), not one under the other.
        if (b[0]!.top < a[a.length - 1]!.bottom - 1) continue;
        // Baseline to baseline: the top of the first's last line to the top of the second's first.
        const step = b[0]!.top - a[a.length - 1]!.top;
        const zoom = (el as HTMLElement).currentCSSZoom;
        const pitch = lineOf(el).line * zoom;
        if (step < pitch * leastParagraph - 0.5)
          found.push(`${label(before)} then ${label(el)}: paragraphs ${(step / pitch).toFixed(2)} lines apart`);
      }
      return found;
    },
    [LEAST_LINE, LEAST_PARAGRAPH] as const,
  );
}

/**
 * Text left under a bar kept at the window's foot (a phone's call to the expert, sticky; 语音朗读's
 * bar, fixed), one line each: at the page's end, and for a sticky bar with main's end scrolled to the
 * window's foot (where it stops), every line of text but the bar's own must be drawn above the bar.
 * The page scrolls under the bar on the way, by design; these are the places where nothing further
 * up can bring the text clear of it. The page is left scrolled as it was.
 */
export async function underFootBars(page: Page): Promise<string[]> {
  await installInPage(page);
  return page.evaluate(async () => {
    const { keptBars, edgeOf, pageScroller } = (window as unknown as InPageWindow).inPage;
    const scroller = pageScroller();
    const was = scroller.scrollTop;
    const settle = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    // Found at the page's top, where a sticky bar is held at the foot as a fixed one is.
    scroller.scrollTo(0, 0);
    await settle();
    const bars = keptBars().filter((bar) => edgeOf(bar) === 'foot');
    const found = new Set<string>();
    const main = document.querySelector('main');
    const sticky = bars.filter((bar) => getComputedStyle(bar).position === 'sticky');
    const places: [string, () => number, Element[]][] = [
      ["main's end", () => scroller.scrollTop + (main ? main.getBoundingClientRect().bottom - innerHeight : 0), sticky],
      ["the page's end", () => scroller.scrollHeight, bars],
    ];
    for (const [where, to, judged] of places) {
      if (judged.length === 0) continue;
      scroller.scrollTo(0, to());
      await settle();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || !n.textContent?.trim() || el.closest('script, style, .sr-only, [hidden]') || !el.checkVisibility()) continue;
        if (bars.some((bar) => bar.contains(el))) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of Array.from(range.getClientRects())) {
          if (r.width === 0 || r.height === 0 || r.bottom <= 0 || r.top >= innerHeight) continue;
          const bar = judged.find((b) => {
            const box = b.getBoundingClientRect();
            return r.bottom > box.top + 1 && r.top < box.bottom - 1 && r.right > box.left + 1 && r.left < box.right - 1;
          });
          if (bar)
            found.add(
              `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} 「${n.textContent.trim().slice(0, 12)}」 under ${bar.tagName.toLowerCase()}.${[...bar.classList].join('.')} at ${where}`,
            );
        }
      }
    }
    scroller.scrollTo(0, was);
    return [...found];
  });
}
