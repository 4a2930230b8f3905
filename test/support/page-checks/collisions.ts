/**
 * What collides on a page as drawn (test/collisions.test.ts and the every-page pass): a banner's
 * text over its artwork or under the fixed header, a picture cut where it is not marked to bleed,
 * a title cut by its line clamp, the header's bar or the footer crowded.
 */
import type { Page } from 'playwright-core';

/** The least room, in CSS px, between the footer's top or left edge and the group's name. */
const FOOTER_MIN_PAD = 24;
/** Summaries, which their line clamp may cut (docs/product/typesetting.md); a title never. */
export const SUMMARIES = '.card-text, .row-text, .treatment-tile p, .expert-specialty, .panel-text';

/** What collides on the page as drawn, one line each; the page scrolled to the top. */
export function collisions(page: Page) {
  return page.evaluate(
    ([footerMinPad, summaries]) => {
      type Box = { left: number; top: number; right: number; bottom: number };
      const found: string[] = [];
      const box = (r: DOMRect | Box): Box => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
      const overlap = (a: Box, b: Box) =>
        Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
      const shown = (el: Element) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) return false;
        for (let e: Element | null = el; e; e = e.parentElement) {
          const cs = getComputedStyle(e);
          if (cs.display === 'none' || cs.visibility === 'hidden' || e.closest('[hidden], [inert], .sr-only')) return false;
        }
        return true;
      };
      const name = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
      /** The lines of an element's text as drawn, and the boxes of its links and buttons. */
      const textBoxes = (el: Element): Box[] => {
        const out: Box[] = [];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (!n.textContent?.trim() || !shown(n.parentElement!)) continue;
          const range = document.createRange();
          range.selectNodeContents(n);
          out.push(...Array.from(range.getClientRects()).map(box));
        }
        for (const a of Array.from(el.querySelectorAll('a, button'))) if (shown(a)) out.push(box(a.getBoundingClientRect()));
        return out;
      };

      // 1. Banners: the text against the artwork and the header.
      const header = document.querySelector('.site-header');
      const headerBox = header ? box(header.getBoundingClientRect()) : undefined;
      const banners: [Element, Element | null, string][] = [];
      const slide = document.querySelector('.slide[data-current="true"]');
      if (slide) {
        banners.push([slide.querySelector('.slide-caption .container')!, slide.querySelector('.slide-image'), 'home banner']);
        const controls = document.querySelector('.carousel-controls');
        if (controls) banners.push([controls, slide.querySelector('.slide-image'), 'banner controls']);
      }
      for (const b of Array.from(document.querySelectorAll('.page-banner')))
        banners.push([b.querySelector('.container')!, b.querySelector('.page-banner-art'), 'page banner']);
      for (const [text, art, what] of banners) {
        const lines = textBoxes(text);
        if (art && shown(art)) {
          const artBox = box(art.getBoundingClientRect());
          if (lines.some((l) => overlap(l, artBox))) found.push(`${what}: text over the artwork`);
          // Nothing of the header's own (logo, items, buttons) over the artwork either.
          if (headerBox && overlap(headerBox, artBox) && what === 'home banner')
            for (const h of Array.from(document.querySelectorAll('.site-logo, .menu-toggle, .book-btn, .nav-link')))
              if (shown(h) && overlap(box(h.getBoundingClientRect()), artBox)) found.push(`${what}: ${name(h)} over the artwork`);
        }
        if (headerBox && lines.some((l) => overlap(l, headerBox))) found.push(`${what}: text under the header`);
      }

      // 2. Pictures cut: by their own box (object-fit), a container that clips, or the viewport's sides.
      const pictures = Array.from(
        document.querySelectorAll<HTMLImageElement | HTMLVideoElement>('main img, main video, header img, footer img'),
      );
      for (const el of pictures) {
        if (!shown(el)) continue;
        const r = el.getBoundingClientRect();
        let drawn: Box = box(r);
        const cs = getComputedStyle(el);
        const natural = el instanceof HTMLImageElement ? [el.naturalWidth, el.naturalHeight] : [el.videoWidth, el.videoHeight];
        if (natural[0]! > 0 && natural[1]! > 0 && (cs.objectFit === 'cover' || cs.objectFit === 'none')) {
          const scale = cs.objectFit === 'cover' ? Math.max(r.width / natural[0]!, r.height / natural[1]!) : el.currentCSSZoom;
          const w = natural[0]! * scale;
          const h = natural[1]! * scale;
          const [px, py] = cs.objectPosition.split(' ').map((p) => (p.endsWith('%') ? parseFloat(p) / 100 : NaN));
          const left = r.left + (r.width - w) * (Number.isNaN(px) ? 0.5 : px!);
          const top = r.top + (r.height - h) * (Number.isNaN(py) ? 0.5 : py!);
          drawn = { left, top, right: left + w, bottom: top + h };
        }
        let clip: Box = { left: 0, top: -Infinity, right: innerWidth, bottom: Infinity };
        const own = box(r);
        clip = {
          left: Math.max(clip.left, own.left),
          top: Math.max(clip.top, own.top),
          right: Math.min(clip.right, own.right),
          bottom: Math.min(clip.bottom, own.bottom),
        };
        for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
          const ps = getComputedStyle(e);
          if (ps.overflowX === 'visible' && ps.overflowY === 'visible') continue;
          const c = box(e.getBoundingClientRect());
          if (ps.overflowX !== 'visible') clip = { ...clip, left: Math.max(clip.left, c.left), right: Math.min(clip.right, c.right) };
          if (ps.overflowY !== 'visible') clip = { ...clip, top: Math.max(clip.top, c.top), bottom: Math.min(clip.bottom, c.bottom) };
        }
        const allowed = (el.closest('[data-bleed]')?.getAttribute('data-bleed') ?? '').split(' ');
        const cut = (['left', 'top', 'right', 'bottom'] as const).filter((side) => {
          if (allowed.includes(side)) return false;
          return side === 'left' || side === 'top' ? drawn[side] < clip[side] - 1.5 : drawn[side] > clip[side] + 1.5;
        });
        if (cut.length > 0)
          found.push(`${name(el)} ${el.getAttribute('src') ?? el.getAttribute('poster') ?? ''} cut at the ${cut.join(', ')}`);
      }

      // 3. No title cut by its line clamp (a summary is clamped to the lines its card has: its end may go).
      for (const el of Array.from(document.querySelectorAll('main *, header *, footer *'))) {
        if (getComputedStyle(el).webkitLineClamp === 'none' || !shown(el) || el.matches(summaries)) continue;
        if (el.scrollHeight > el.clientHeight + 1) found.push(`${name(el)} cut by its line clamp: ${el.textContent?.trim().slice(0, 16)}`);
      }

      // 4. The header's main bar holds its parts (logo, items, buttons) inside its column.
      const bar = document.querySelector<HTMLElement>('.header-bar');
      if (bar) {
        const cs = getComputedStyle(bar);
        const r = bar.getBoundingClientRect();
        const zoom = bar.currentCSSZoom;
        const inside = { left: r.left + parseFloat(cs.paddingLeft) * zoom, right: r.right - parseFloat(cs.paddingRight) * zoom };
        for (const part of Array.from(bar.children)) {
          const p = part.getBoundingClientRect();
          if (p.width > 0 && (p.left < inside.left - 1 || p.right > inside.right + 1))
            found.push(`header: ${name(part)} outside the column`);
        }
      }

      // 5. The footer keeps its padding around the group's name.
      const footer = document.querySelector('.site-footer');
      const brand = document.querySelector('.footer-name');
      if (footer && brand) {
        const f = footer.getBoundingClientRect();
        const b = brand.getBoundingClientRect();
        if (b.top - f.top < footerMinPad) found.push(`footer: the name ${Math.round(b.top - f.top)} px from its top`);
        if (b.left - f.left < Math.min(footerMinPad, 16)) found.push(`footer: the name ${Math.round(b.left - f.left)} px from its left`);
      }
      return found;
    },
    [FOOTER_MIN_PAD, SUMMARIES] as const,
  );
}
