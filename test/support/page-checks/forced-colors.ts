/**
 * What forced colours (Windows' contrast themes; Chromium's emulation) leave of the page's shapes,
 * read from the pixels drawn (test/forced-colors.test.ts). The rule: whatever the standard colours
 * draw as a box (a control with a fill, an edge or a shadow; a card edged by its shadow) still has
 * an edge on all four sides in the system colours; an icon still draws something; a focused link
 * has a ring. "Ink" is a pixel that is the page's background (Canvas) blended with one of the
 * system colours, at least a third of the way: what anti-aliasing makes of a thin line in it.
 */
import sharp from 'sharp';
import type { Page } from 'playwright-core';

type Rgb = [number, number, number];
export interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The attribute that marks the boxes found in the standard colours, for the look in forced colours. */
const MARK = 'data-shape-check';

/**
 * In the standard colours: marks the controls (links, buttons, fields) and boxes (cards, panels,
 * anything with a shadow) inside `scope` and wholly in the window that are drawn as a box (a fill
 * or an edge that differs from what is behind them, or a shadow around them). Returns how many.
 */
export function markShapes(page: Page, scope: string): Promise<number> {
  return page.evaluate(
    ({ scope, mark }) => {
      const rgba = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
      const opaque = (c: string) => {
        const [, , , a = 1] = rgba(c);
        return a > 0.1;
      };
      /** The colour behind an element: the first opaque background among its ancestors. */
      const behind = (el: Element): string => {
        for (let p = el.parentElement; p; p = p.parentElement) {
          const bg = getComputedStyle(p).backgroundColor;
          if (opaque(bg)) return bg;
        }
        return 'rgb(255, 255, 255)';
      };
      const differs = (a: string, b: string) => {
        const [x, y] = [rgba(a), rgba(b)];
        return [0, 1, 2].some((i) => Math.abs(x[i]! - y[i]!) > 6);
      };
      const shadowed = (cs: CSSStyleDeclaration) => cs.boxShadow !== 'none' && !cs.boxShadow.includes('inset');
      const shaped = (el: Element) => {
        const cs = getComputedStyle(el);
        const ground = behind(el);
        if (opaque(cs.backgroundColor) && differs(cs.backgroundColor, ground)) return true;
        const edged = (['top', 'right', 'bottom', 'left'] as const).every((side) => {
          const width = parseFloat(cs.getPropertyValue(`border-${side}-width`));
          const colour = cs.getPropertyValue(`border-${side}-color`);
          return width >= 1 && opaque(colour) && differs(colour, ground);
        });
        return edged || shadowed(cs);
      };
      // What the keyboard reaches (a backdrop that closes a menu on a click is not); cards and
      // panels, and any other box drawn with a shadow around it.
      const control = ':is(a[href], button, summary, input:not([type="hidden"]), select):not([tabindex="-1"]), .card, [class*="panel"]';
      const candidate = (el: Element) => el.matches(control) || shadowed(getComputedStyle(el));
      const inWindow = (r: DOMRect) =>
        r.width >= 8 && r.height >= 8 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
      // Only this look's: the marks of a look before are taken away.
      for (const el of document.querySelectorAll(`[${mark}]`)) el.removeAttribute(mark);
      let count = 0;
      for (const root of document.querySelectorAll(scope)) {
        for (const el of root.querySelectorAll('*')) {
          if (
            !candidate(el) ||
            !el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) ||
            !inWindow(el.getBoundingClientRect())
          )
            continue;
          if (shaped(el)) el.setAttribute(mark, String(count++));
        }
      }
      return count;
    },
    { scope, mark: MARK },
  );
}

/** The boxes marked by markShapes, where they are now, named. */
export function markedBoxes(page: Page): Promise<Box[]> {
  return page.evaluate(
    (mark) =>
      Array.from(document.querySelectorAll(`[${mark}]`)).map((el) => {
        const r = el.getBoundingClientRect();
        const name = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} 「${el.textContent?.trim().slice(0, 12) ?? ''}」`;
        return { name, x: r.left, y: r.top, width: r.width, height: r.height };
      }),
    MARK,
  );
}

/**
 * The colours the page is drawn in under forced colours, Canvas first: the background any element
 * is forced to (a red one becomes Canvas), then every colour, edge and fill the page's elements
 * have now (forced to the system's; where the site keeps its own, it names system colours too).
 */
export function systemColours(page: Page): Promise<Rgb[]> {
  return page.evaluate(() => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const probe = document.createElement('div');
    probe.style.backgroundColor = 'red';
    document.body.append(probe);
    const canvas = getComputedStyle(probe).backgroundColor;
    probe.remove();
    const seen = new Set<string>([canvas]);
    for (const el of document.querySelectorAll('body *')) {
      const cs = getComputedStyle(el);
      for (const c of [cs.color, cs.borderTopColor, cs.outlineColor, cs.backgroundColor]) if ((rgb(c)[3] ?? 1) > 0.5) seen.add(c);
    }
    return [...seen].map((c) => rgb(c).slice(0, 3) as [number, number, number]);
  });
}

/** The window's pixels, as drawn now. */
export async function windowPixels(page: Page): Promise<{ at(x: number, y: number): Rgb; width: number; height: number }> {
  const { data, info } = await sharp(await page.screenshot())
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at(x, y) {
      const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    },
  };
}

/** Whether a pixel is Canvas blended with one of the other system colours, at least a third of the way. */
export function inkOf(colours: readonly Rgb[]): (p: Rgb) => boolean {
  const [canvas, ...others] = colours as [Rgb, ...Rgb[]];
  const distinct = others.filter((s) => s.some((v, i) => Math.abs(v - canvas[i]!) > 48));
  return (p) =>
    distinct.some((s) => {
      const d = s.map((v, i) => v - canvas[i]!);
      const q = p.map((v, i) => v - canvas[i]!);
      const length = d.reduce((n, v) => n + v * v, 0);
      const t = d.reduce((n, v, i) => n + v * q[i]!, 0) / length;
      const residual = Math.hypot(...q.map((v, i) => v - t * d[i]!));
      return t >= 0.33 && residual <= 40;
    });
}

type Pixels = Awaited<ReturnType<typeof windowPixels>>;

/**
 * The sides of `box` along which fewer than 80 % of the middle half has ink within a band from
 * `from` to `to` px of the edge (negative: inside the box).
 */
export function bareSides(pixels: Pixels, ink: (p: Rgb) => boolean, box: Box, from: number, to: number): string[] {
  const bare: string[] = [];
  const clampX = (x: number) => Math.min(pixels.width - 1, Math.max(0, x));
  const clampY = (y: number) => Math.min(pixels.height - 1, Math.max(0, y));
  const sides = [
    ['top', box.y, -1, 'x'],
    ['bottom', box.y + box.height, 1, 'x'],
    ['left', box.x, -1, 'y'],
    ['right', box.x + box.width, 1, 'y'],
  ] as const;
  for (const [side, edge, outward, along] of sides) {
    const [start, length] = along === 'x' ? [box.x, box.width] : [box.y, box.height];
    let inked = 0;
    let samples = 0;
    for (let s = start + length / 4; s <= start + (3 * length) / 4; s++) {
      samples++;
      for (let d = from; d <= to; d++) {
        const e = edge + outward * d;
        const p = along === 'x' ? pixels.at(clampX(s), clampY(e)) : pixels.at(clampX(e), clampY(s));
        if (ink(p)) {
          inked++;
          break;
        }
      }
    }
    if (inked < samples * 0.8) bare.push(side);
  }
  return bare;
}

/** How many pixels of `box` are ink. */
export function inkIn(pixels: Pixels, ink: (p: Rgb) => boolean, box: Omit<Box, 'name'>): number {
  let n = 0;
  for (let y = Math.floor(box.y); y < box.y + box.height; y++)
    for (let x = Math.floor(box.x); x < box.x + box.width; x++)
      if (x >= 0 && y >= 0 && x < pixels.width && y < pixels.height && ink(pixels.at(x, y))) n++;
  return n;
}
