/**
 * What the high-contrast theme promises beyond text (client/styles/contrast.css), which axe does
 * not measure: every control drawn as a box (a fill or an edge) stands out from what is behind it
 * at 4.5:1 at least, by its edge or its fill; and every control's focus ring is at 4.5:1 against
 * what lies right outside it (the theme's white halo, where it has one, else the background).
 * Colours as computed; what is behind an element is the first opaque background among its
 * ancestors (a picture behind is not looked at: the theme draws no control over one).
 */
import type { Page } from 'playwright-core';
import { installInPage, type InPageWindow } from './in-page.js';

/** One line per control that falls short, with the ratio found. */
export async function themeContrastFaults(page: Page): Promise<string[]> {
  await installInPage(page);
  return page.evaluate(() => {
    const { contrastRatio: ratio, rgbaOf: parse, over } = (window as unknown as InPageWindow).inPage;
    type Rgba = [number, number, number, number];
    const opaque = (c: Rgba) => c[3] > 0.9;
    const behind = (el: Element): Rgba => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const bg = parse(getComputedStyle(p).backgroundColor);
        if (opaque(bg)) return bg;
      }
      return [255, 255, 255, 1];
    };
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} 「${el.textContent?.trim().slice(0, 12) ?? ''}」`;
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return (
        r.width > 0 &&
        r.height > 0 &&
        el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
        !el.closest('.sr-only, [inert]')
      );
    };
    const faults: string[] = [];
    const controls = Array.from(
      document.querySelectorAll<HTMLElement>(
        ':is(a[href], button, summary, input:not([type="hidden"]), select, textarea):not([tabindex="-1"])',
      ),
    ).filter(shown);

    // A control drawn as a box: its edge or its fill against what is behind it.
    for (const el of controls) {
      const cs = getComputedStyle(el);
      const ground = behind(el);
      const rawFill = parse(cs.backgroundColor);
      const fill = over(rawFill, ground);
      const filled = rawFill[3] > 0.1 && ratio(fill, ground) > 1.05;
      // Its edges: the sides drawn (a bar on one side marks an item as much as a whole edge does).
      const edges = (['top', 'right', 'bottom', 'left'] as const).flatMap((side) => {
        const colour = parse(cs.getPropertyValue(`border-${side}-color`));
        const drawn =
          parseFloat(cs.getPropertyValue(`border-${side}-width`)) >= 1 &&
          colour[3] > 0.1 &&
          cs.getPropertyValue(`border-${side}-style`) !== 'none';
        return drawn ? [ratio(over(colour, rawFill[3] > 0.1 ? fill : ground), ground)] : [];
      });
      if (!edges.length && !filled) continue;
      const best = Math.max(...edges, filled ? ratio(fill, ground) : 0);
      if (best < 4.5)
        faults.push(
          `${name(el)}: its edge or fill is ${best.toFixed(2)}:1 (${cs.borderColor} / ${cs.backgroundColor}) on rgb(${ground.slice(0, 3).join(', ')})`,
        );
    }

    // Each control's focus ring, as drawn when it has the keyboard's focus.
    for (const el of controls) {
      el.focus({ preventScroll: true });
      if (document.activeElement !== el || !el.matches(':focus-visible')) continue;
      // As drawn once its transitions have run (under reduced motion every property has one, 0.01 ms long).
      for (const transition of el.getAnimations()) transition.finish();
      const cs = getComputedStyle(el);
      const ring = parse(cs.outlineColor);
      if (cs.outlineStyle === 'none' || parseFloat(cs.outlineWidth) < 2) {
        faults.push(`${name(el)}: no focus ring (outline ${cs.outlineStyle} ${cs.outlineWidth})`);
        continue;
      }
      // The halo: a box shadow reaching past the ring's outer edge.
      const reach = parseFloat(cs.outlineOffset) + parseFloat(cs.outlineWidth);
      const halo = /(rgba?\([^)]*\))\s+0px\s+0px\s+0px\s+([\d.]+)px/.exec(cs.boxShadow);
      const outside = halo && parseFloat(halo[2]!) > reach ? parse(halo[1]!) : behind(el);
      const r = ratio(ring, outside);
      if (r < 4.5)
        faults.push(`${name(el)}: its focus ring ${cs.outlineColor} is ${r.toFixed(2)}:1 against rgb(${outside.slice(0, 3).join(', ')})`);
    }
    (document.activeElement as HTMLElement | null)?.blur();
    return faults;
  });
}
