/**
 * Text as large as a visitor who sees poorly can read (issue 45 point 1, docs/decisions/064): the
 * size each visible character is drawn at (its font size times the page's zoom there, in CSS px),
 * over every character of the page, whether scrolled to or not. No test runner here: the
 * every-page passes measure it at their widths (390, 768, 1280 and 1920 px), and
 * test/text-size-by-width.test.ts at the widths between and beyond.
 */
import type { Page } from 'playwright-core';
import { DRAW_EVERY_PART } from './text-spacing.js';

/** The drawn sizes of a page's characters: the 5th percentile and the median, weighted by character count. */
export interface TextSizes {
  p5: number;
  median: number;
  /** Characters counted. */
  count: number;
  /** The five texts of the most characters drawn under `small` px, each with its size. */
  smallest: string[];
}

/** What the drawn sizes must reach: the 5th percentile (captions, dates, labels) and the median (body text). */
export interface TextSizeFloor {
  p5: number;
  median: number;
}

/** Most text at least 16 px, captions, dates and labels at least 14. */
const FLOOR: TextSizeFloor = { p5: 14, median: 16 };

/** The floor at `width`: at the design's width (1920 px) the standard view draws the design's 18 px body text. */
export const textSizeFloor = (width: number, large: boolean): TextSizeFloor => (width === 1920 && !large ? { p5: 14, median: 18 } : FLOOR);

/** The drawn sizes of every visible character on the page as it is now; the texts drawn under `small` px named. */
export function textSizes(page: Page, small: number): Promise<TextSizes> {
  return page.evaluate(
    async ([small, drawEveryPart]) => {
      // A skipped part keeps the style of the width it was last drawn at: a page loaded at 320 px and
      // widened to 768 reported its footer at the phone's 14 px times the wider layout's zoom
      // (12.4 px), where scrolled to it is drawn at 16. Measured as drawn when reached, after a frame:
      // its style is brought up to date as it is drawn, not when read.
      const drawAll = document.createElement('style');
      drawAll.textContent = drawEveryPart;
      document.head.append(drawAll);
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const sizes = new Map<number, number>();
      const under = new Map<string, number>();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        const chars = (n.textContent ?? '').replace(/\s/g, '').length;
        if (!el || chars === 0 || el.closest('script, style, .sr-only, [hidden], [inert]')) continue;
        // Shown: not hidden, transparent or folded away, and taking room on the page.
        if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        if (!Array.from(range.getClientRects()).some((r) => r.width > 0 && r.height > 0)) continue;
        const size = Math.round(parseFloat(getComputedStyle(el).fontSize) * el.currentCSSZoom * 10) / 10;
        sizes.set(size, (sizes.get(size) ?? 0) + chars);
        if (size < small) {
          const name = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} 「${n.textContent!.trim().slice(0, 10)}」 ${size} px`;
          under.set(name, (under.get(name) ?? 0) + chars);
        }
      }
      drawAll.remove();
      const sorted = [...sizes].sort((a, b) => a[0] - b[0]);
      const count = sorted.reduce((sum, [, c]) => sum + c, 0);
      const at = (share: number) => {
        let seen = 0;
        for (const [size, c] of sorted) if ((seen += c) >= count * share) return size;
        return 0;
      };
      const smallest = [...under]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([name, c]) => `${name} (${c})`);
      return { p5: at(0.05), median: at(0.5), count, smallest };
    },
    [small, DRAW_EVERY_PART] as const,
  );
}

/** What is wrong with the page's drawn text sizes against `floor`, one line each. */
export async function textSizeFaults(page: Page, floor: TextSizeFloor): Promise<string[]> {
  const sizes = await textSizes(page, floor.median);
  if (sizes.count === 0) return ['no visible text'];
  const faults: string[] = [];
  const drawn = `5th percentile ${sizes.p5} px, median ${sizes.median} px of ${sizes.count} characters`;
  if (sizes.p5 < floor.p5) faults.push(`${drawn}: the 5th percentile under ${floor.p5} px`);
  if (sizes.median < floor.median) faults.push(`${drawn}: the median under ${floor.median} px`);
  if (faults.length > 0) faults.push(`most drawn under ${floor.median} px: ${sizes.smallest.join('; ')}`);
  return faults;
}
