/**
 * Pictures loaded, and those drawn larger than the variant their `sizes` chose or asking for far
 * more (test/pictures.test.ts, the every-page pass, bench/window-images.js). No test runner here:
 * a bench imports it too.
 */
import type { Page } from 'playwright-core';

/** How long loadPictures waits for the pictures it made the page fetch. */
const PICTURES_WAIT_MS = 45_000;

/**
 * Scrolls through the page, so that lazy pictures load, waits for them, and back to the top. The
 * addresses of the pictures drawn that had neither loaded nor failed after PICTURES_WAIT_MS: a
 * picture that never ends is named, not waited for until the test's own time runs out.
 */
export async function loadPictures(page: Page): Promise<string[]> {
  return page.evaluate(async (waitMs) => {
    // A frame, or a fifth of a second where the page draws none (it would wait forever).
    const frame = () => new Promise((done) => (requestAnimationFrame(done), setTimeout(done, 200)));
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight) {
      scrollTo(0, y);
      await frame();
    }
    // Those drawn (a picture hidden at this width is never fetched), once they have loaded or failed.
    const drawn = Array.from(document.images).filter((img) => img.getBoundingClientRect().width > 0);
    // A lazy picture whose fetch has not begun (no frame was drawn while it was near the window, on
    // a busy machine): brought into view by itself.
    for (const img of drawn.filter((img) => !img.complete && !img.currentSrc)) {
      img.scrollIntoView({ block: 'center' });
      await frame();
    }
    scrollTo(0, 0);
    const loading = drawn.filter((img) => !img.complete);
    const ended = Promise.all(
      loading.map(
        (img) =>
          new Promise((done) => {
            img.addEventListener('load', done, { once: true });
            img.addEventListener('error', done, { once: true });
          }),
      ),
    );
    await Promise.race([ended, new Promise((done) => setTimeout(done, waitMs))]);
    return loading.filter((img) => !img.complete).map((img) => img.currentSrc || img.src);
  }, PICTURES_WAIT_MS);
}

/**
 * Of the pictures looked at (`variantsChosen`), those drawn wider, in device pixels, than the
 * variant chosen from their srcset (by their `sizes`), when a wider one was on offer. One line each.
 *
 * The variant is the one the browser chose (`currentSrc`) when looked at `'by-browser'`. Where the
 * browser may already hold a wider variant, a page whose window was widened or one visited after
 * pages that drew the picture larger (the every-page pass: `'by-sizes'`), it keeps that one, which
 * would hide a `sizes` that asks too little: there the variant is the one a page loaded at this
 * width with nothing held gets, worked out from the `sizes` as it evaluates now (its first entry
 * whose media condition matches, its length measured) and the srcset: the narrowest at least as
 * wide as that length in device pixels, else the widest. A picture whose <picture> has a <source>
 * for this width is left out, as `currentSrc` leaves it.
 */
export function upscaledIn(pictures: Chosen[]): string[] {
  return pictures
    .filter((p) => p.chosen < p.needed * 0.97 && p.chosen < p.widest)
    .map((p) => `${p.name}: ${p.chosen}w drawn ${Math.round(p.needed)} px wide (sizes "${p.sizes}")`);
}

/**
 * Content pictures whose `sizes` asks for more than a quarter more than they are drawn in, in
 * device pixels, and so for a wider variant than the narrowest that fills them: bytes a visitor
 * waits for and never sees. Worked out from the `sizes`, as `upscaledIn` does `'by-sizes'`. One line
 * each.
 */
export async function overAsked(page: Page): Promise<string[]> {
  return overAskedIn(await variantsChosen(page, 'by-sizes'));
}

/** `overAsked`'s lines for pictures already looked at (`variantsChosen(page, 'by-sizes')`). */
export function overAskedIn(pictures: Chosen[]): string[] {
  return pictures
    .filter((p) => p.asked! > p.needed * 1.25 && p.chosen > p.fits)
    .map((p) => `${p.name}: ${p.chosen}w for ${Math.round(p.needed)} px drawn, ${p.fits}w would fill it (sizes "${p.sizes}")`);
}

export type Chosen = Awaited<ReturnType<typeof variantsChosen>>[number];

/**
 * Each content picture drawn: its variant's width, chosen as `upscaledIn` says, the device pixels it
 * is drawn in, the narrowest variant that fills them (else the widest), the widest on offer, and
 * (worked out from `sizes` only) the device pixels its `sizes` asks for.
 */
export function variantsChosen(page: Page, chosen: 'by-browser' | 'by-sizes') {
  return page.evaluate((bySizes) => {
    /** Each length measured, once: pictures of one kind share their `sizes`, and each measure lays the page out. */
    const measured = new Map<string, number>();
    const measure = (length: string): number => {
      let width = measured.get(length);
      if (width === undefined) {
        const probe = document.createElement('div');
        probe.style.cssText = `position:fixed;left:0;top:0;height:0;visibility:hidden;width:${length}`;
        document.documentElement.append(probe);
        width = probe.getBoundingClientRect().width / probe.currentCSSZoom;
        probe.remove();
        measured.set(length, width);
      }
      return width;
    };
    /** The `sizes` attribute's length in CSS px at the window's current width (`auto`: a lazy picture's own width). */
    const sourceSize = (sizes: string, auto: number | undefined): number => {
      const entries: string[] = [];
      let depth = 0;
      let start = 0;
      for (let i = 0; i < sizes.length; i++) {
        if (sizes[i] === '(') depth++;
        else if (sizes[i] === ')') depth--;
        else if (sizes[i] === ',' && depth === 0) entries.push(sizes.slice(start, (start = i + 1) - 1));
      }
      entries.push(sizes.slice(start));
      for (const raw of entries) {
        const entry = raw.trim();
        if (entry === 'auto') {
          if (auto === undefined) continue;
          return auto;
        }
        // The length is the last component: a function with its arguments, or one token.
        let at = entry.lastIndexOf(' ') + 1;
        if (entry.endsWith(')')) {
          let d = 0;
          for (at = entry.length - 1; at >= 0; at--) {
            if (entry[at] === ')') d++;
            else if (entry[at] === '(' && --d === 0) break;
          }
          while (at > 0 && /[a-z-]/i.test(entry[at - 1]!)) at--;
        }
        const condition = entry.slice(0, at).trim();
        if (condition && !matchMedia(condition).matches) continue;
        return measure(entry.slice(at));
      }
      return innerWidth;
    };
    const found: {
      name: string;
      src: string;
      chosen: number;
      needed: number;
      fits: number;
      widest: number;
      asked?: number;
      sizes: string;
    }[] = [];
    for (const img of Array.from(document.querySelectorAll<HTMLImageElement>('img[srcset]'))) {
      const r = img.getBoundingClientRect();
      if (r.width === 0 || !img.complete || img.naturalWidth === 0 || img.closest('[hidden], [inert]')) continue;
      const candidates = img.srcset.split(', ').map((c) => {
        const [url, w] = c.split(' ');
        return { url: new URL(url!, location.href).href, width: parseInt(w!, 10) };
      });
      // The content box as drawn (zoom included), and the picture's width in it (object-fit).
      const cs = getComputedStyle(img);
      const zoom = img.currentCSSZoom;
      const w = r.width - (parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + parseFloat(cs.borderLeftWidth) * 2) * zoom;
      const h = r.height - (parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom) + parseFloat(cs.borderTopWidth) * 2) * zoom;
      let chosen: { width: number } | undefined;
      let asked: number | undefined;
      if (!bySizes) chosen = candidates.find((c) => c.url === img.currentSrc);
      else if (
        !Array.from(img.parentElement!.querySelectorAll<HTMLSourceElement>(':scope > source')).some(
          (s) => matchMedia(s.media || 'all').matches,
        )
      ) {
        // `auto` is the picture's own width in CSS px as laid out, before the page's zoom (Chromium's reading).
        asked = sourceSize(img.sizes, img.loading === 'lazy' ? w / zoom : undefined) * devicePixelRatio;
        const wideEnough = candidates.filter((c) => c.width >= asked!).sort((a, b) => a.width - b.width);
        chosen = wideEnough[0] ?? candidates.reduce((a, b) => (b.width > a.width ? b : a));
      }
      if (!chosen) continue;
      const aspect = img.naturalWidth / img.naturalHeight;
      const drawn = cs.objectFit === 'cover' ? Math.max(w, h * aspect) : cs.objectFit === 'contain' ? Math.min(w, h * aspect) : w;
      const needed = drawn * devicePixelRatio;
      const widest = Math.max(...candidates.map((c) => c.width));
      const fits = Math.min(widest, ...candidates.filter((c) => c.width >= needed * 0.97).map((c) => c.width));
      const name = img.className || img.parentElement!.className;
      found.push({ name, src: img.getAttribute('src') ?? '', chosen: chosen.width, needed, fits, widest, asked, sizes: img.sizes });
    }
    return found;
  }, chosen === 'by-sizes');
}
