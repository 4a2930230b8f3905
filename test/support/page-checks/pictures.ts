/** Pictures drawn larger than the variant their `sizes` chose (test/pictures.test.ts and the every-page pass). */
import type { Page } from 'playwright-core';

/**
 * Content pictures drawn wider, in device pixels, than the variant the browser chose from their
 * srcset (by their `sizes`), when a wider one was on offer. One line each.
 */
export function upscaled(page: Page) {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const img of Array.from(document.querySelectorAll<HTMLImageElement>('img[srcset]'))) {
      const r = img.getBoundingClientRect();
      if (r.width === 0 || !img.complete || img.naturalWidth === 0 || img.closest('[hidden], [inert]')) continue;
      const candidates = img.srcset.split(', ').map((c) => {
        const [url, w] = c.split(' ');
        return { url: new URL(url!, location.href).href, width: parseInt(w!, 10) };
      });
      const chosen = candidates.find((c) => c.url === img.currentSrc);
      if (!chosen) continue;
      // The content box as drawn (zoom included), and the picture's width in it (object-fit).
      const cs = getComputedStyle(img);
      const zoom = img.currentCSSZoom;
      const w = r.width - (parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + parseFloat(cs.borderLeftWidth) * 2) * zoom;
      const h = r.height - (parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom) + parseFloat(cs.borderTopWidth) * 2) * zoom;
      const aspect = img.naturalWidth / img.naturalHeight;
      const drawn = cs.objectFit === 'cover' ? Math.max(w, h * aspect) : cs.objectFit === 'contain' ? Math.min(w, h * aspect) : w;
      const needed = drawn * devicePixelRatio;
      const widest = Math.max(...candidates.map((c) => c.width));
      if (chosen.width < needed * 0.97 && chosen.width < widest)
        found.push(
          `${img.className || img.parentElement!.className}: ${chosen.width}w drawn ${Math.round(needed)} px wide (sizes "${img.sizes}")`,
        );
    }
    return found;
  });
}
