/**
 * The contrast of text axe cannot judge (WCAG 1.4.6: 7:1, 4.5:1 when large): text whose
 * background axe cannot tell, a gradient, a picture or a pseudo-element behind it (axe's AA rule
 * leaves it "incomplete", its AAA rule passes it). Measured from what is drawn: each such text's
 * lines are shot with its glyphs and decorations made transparent, and its colour compared with
 * every pixel behind them, the worst one counting.
 */
import type { Page } from 'playwright-core';
import sharp, { type OutputInfo } from 'sharp';
import { contrastRatio } from './in-page.js';

/** axe's reasons for a background it could not tell. */
const UNKNOWN_BACKGROUND = ['bgGradient', 'bgImage', 'pseudoContent', 'bgOverlap'];

const MARK = 'data-drawn-contrast';

type Rgb = [number, number, number];

/** One line per text under its ratio, with the worst pixel found; `checked` counts the texts measured. */
export async function drawnContrastFaults(page: Page): Promise<{ faults: string[]; checked: number }> {
  const texts = await page.evaluate(
    async ({ reasons, mark }) => {
      const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
      const results = await axe.run(document, { runOnly: { type: 'rule', values: ['color-contrast'] }, resultTypes: ['incomplete'] });
      const nodes = results.incomplete.flatMap((rule) => rule.nodes);
      return nodes
        .filter((n) => reasons.includes((n.any[0]?.data as { messageKey?: string } | undefined)?.messageKey ?? ''))
        .map((n, at) => {
          const el = document.querySelector(n.target.join(' '))!;
          el.setAttribute(mark, String(at));
          const style = getComputedStyle(el);
          const size = parseFloat(style.fontSize);
          const bold = parseFloat(style.fontWeight) >= 700;
          // axe's large text: 18 pt, or 14 pt bold (24 and 18.67 CSS px).
          const large = size * 0.75 >= (bold ? 14 : 18);
          return { at, name: n.target.join(' '), text: el.textContent.trim().slice(0, 16), color: style.color, large };
        });
    },
    { reasons: UNKNOWN_BACKGROUND, mark: MARK },
  );
  // Glyphs, underlines and shadows transparent; the boxes, fills and pictures as they are.
  const hide = await page.addStyleTag({
    content: `[${MARK}], [${MARK}] *, :has(> [${MARK}]) { color: transparent !important; text-decoration-color: transparent !important; text-shadow: none !important; }`,
  });
  const faults: string[] = [];
  const left = new Map(texts.map((t) => [t.at, t]));
  while (left.size > 0) {
    // One shot of the window for every text wholly in it, the next one left scrolled to its middle
    // (not merely into it: under the fixed header is in it).
    await page
      .locator(`[${MARK}="${left.keys().next().value}"]`)
      .evaluate((e) => e.scrollIntoView({ block: 'center', behavior: 'instant' }));
    const lines = await linesInWindow(page, [...left.keys()]);
    const shot = await sharp(await page.screenshot({ animations: 'disabled' }))
      .raw()
      .toBuffer({ resolveWithObject: true });
    for (const [at, rects] of lines) {
      const t = left.get(at)!;
      left.delete(at);
      if (!rects) {
        faults.push(`${t.name} 「${t.text}」: not seen whole in the middle of the window, so not measured`);
        continue;
      }
      const color = t.color
        .match(/[\d.]+/g)!
        .slice(0, 3)
        .map(Number) as Rgb;
      const { ratio, pixel } = worstBehind(shot, rects, color);
      const needed = t.large ? 4.5 : 7;
      if (ratio < needed)
        faults.push(`${t.name} 「${t.text}」: ${t.color} at ${ratio.toFixed(2)}:1 over rgb(${pixel.join(', ')}), under ${needed}:1`);
    }
  }
  await hide.evaluate((style) => (style as Element).remove());
  await page.evaluate((mark) => document.querySelectorAll(`[${mark}]`).forEach((e) => e.removeAttribute(mark)), MARK);
  return { faults, checked: texts.length };
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The lines of each marked text (its own text, not its box: an icon, an edge or a separator beside
 * them is not behind it), in whole device pixels, for the texts wholly in the window and on top
 * (not under the fixed header); the first text, scrolled to, always, null where it is not seen
 * whole, so that the loop ends.
 */
function linesInWindow(page: Page, ats: number[]): Promise<Map<number, Rect[] | null>> {
  return page
    .evaluate(
      ({ mark, ats }) =>
        ats.flatMap((at, i): [number, Rect[] | null][] => {
          const el = document.querySelector(`[${mark}="${at}"]`)!;
          const lines = Array.from(el.childNodes)
            .filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim())
            .flatMap((n) => {
              const range = document.createRange();
              range.selectNodeContents(n);
              return Array.from(range.getClientRects());
            })
            .filter((r) => r.width >= 1 && r.height >= 1);
          const seen = (r: DOMRect) =>
            r.left >= 0 &&
            r.top >= 0 &&
            r.right <= innerWidth &&
            r.bottom <= innerHeight &&
            el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
          if (!lines.every(seen)) return i === 0 ? [[at, null]] : [];
          const rects = lines.map((r) => {
            const [x, y] = [Math.round(r.left), Math.round(r.top)];
            return { x, y, width: Math.round(r.right) - x, height: Math.round(r.bottom) - y };
          });
          return [[at, rects]];
        }),
      { mark: MARK, ats },
    )
    .then((entries) => new Map(entries));
}

/** The pixel of `shot` within `rects` least in contrast with `color`, and that contrast. */
function worstBehind(shot: { data: Buffer; info: OutputInfo }, rects: Rect[], color: Rgb): { ratio: number; pixel: Rgb } {
  const { data, info } = shot;
  let worst = { ratio: Infinity, pixel: [0, 0, 0] as Rgb };
  for (const r of rects)
    for (let y = r.y; y < r.y + r.height; y++)
      for (let x = r.x; x < r.x + r.width; x++) {
        const i = (y * info.width + x) * info.channels;
        const pixel: Rgb = [data[i]!, data[i + 1]!, data[i + 2]!];
        const ratio = contrastRatio(color, pixel);
        if (ratio < worst.ratio) worst = { ratio, pixel };
      }
  return worst;
}
