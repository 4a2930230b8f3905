/**
 * Nothing collides, measured in real Chromium against the built service, on every page and the
 * 404 page, at a phone's, a laptop's and the design's width, in the standard and the large-text
 * mode (长者模式): a banner's text (its lines as drawn, and its buttons) never overlaps its
 * artwork or the fixed header; no picture is cut by the viewport, by a container that clips, or
 * by its own box (object-fit), except on the sides it is marked to bleed (`data-bleed="left"`);
 * no title is cut by its line clamp (a summary may be); the header's bar holds its parts; and the footer
 * keeps its padding around the group's name. One browser, the pages in turn.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_SIZE_COOKIE } from '../shared/constants.js';
import {
  consoleProblems,
  gotoHydrated,
  loadPictures,
  openPage,
  startSiteAndChromium,
  stopSiteAndChromium,
  expectNothingFound,
  onEach,
} from './support/browser.js';
import { EVERY_PAGE } from './support/sample-urls.js';
import { type RunningService } from './support/start-service.js';

/** The least room, in CSS px, between the footer's top or left edge and the group's name. */
const FOOTER_MIN_PAD = 24;
/** Summaries, which their line clamp may cut (docs/product/typesetting.md); a title never. */
const SUMMARIES = '.card-text, .row-text, .treatment-tile p, .expert-specialty, .panel-text';

/** What collides on the page as drawn, one line each; the page scrolled to the top. */
function collisions(page: Page) {
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

describe('no collisions, in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

  it.each([
    { width: 390, large: false },
    { width: 390, large: true },
    { width: 1280, large: false },
    { width: 1280, large: true },
    { width: 1920, large: false },
    { width: 1920, large: true },
  ])(
    'every page at $width px (large text: $large): banner text clear, no picture cut, no title clamped, the header and the footer whole',
    (mode) =>
      expectNothingFound(browser, svc.url, mode, (page) =>
        onEach(page, svc.url, EVERY_PAGE, async () => {
          await loadPictures(page);
          return collisions(page);
        }),
      ),
    120_000,
  );

  it.each([
    { width: 1920, large: false },
    { width: 1280, large: false },
    { width: 1920, large: true },
  ])(
    'each header panel at $width px (large text: $large) is as tall as what it holds, and keeps to the header\u2019s column',
    async ({ width, large }) => {
      const w = await openPage(browser, { width, height: 900 });
      if (large) await w.page.context().addCookies([{ name: TEXT_SIZE_COOKIE, value: 'large', url: svc.url }]);
      await gotoHydrated(w.page, `${svc.url}/lxwm/index`);
      const items = w.page.locator('.nav-link[aria-controls]');
      const found: string[] = [];
      for (let i = 0; i < (await items.count()); i++) {
        await items.nth(i).hover();
        const id = (await items.nth(i).getAttribute('aria-controls'))!;
        await w.page.waitForFunction((id) => document.getElementById(id)?.dataset.open === 'true', id);
        await w.page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
        await w.page.waitForFunction(
          (id) => Array.from(document.getElementById(id)!.querySelectorAll('img')).every((img) => img.complete),
          id,
        );
        found.push(
          ...(await w.page.evaluate((id) => {
            const panel = document.getElementById(id)!;
            const inner = panel.firstElementChild!;
            // Padding as drawn: the page may be scaled.
            const pad = parseFloat(getComputedStyle(inner).paddingBottom) * (inner as HTMLElement).currentCSSZoom;
            const bar = document.querySelector<HTMLElement>('.header-bar')!;
            const column = bar.getBoundingClientRect().right - parseFloat(getComputedStyle(bar).paddingRight) * bar.currentCSSZoom;
            const parts = Array.from(inner.children).map((c) => c.getBoundingClientRect());
            const out: string[] = [];
            const empty = panel.getBoundingClientRect().bottom - Math.max(...parts.map((r) => r.bottom)) - pad;
            if (empty > 2) out.push(`${id}: ${Math.round(empty)} px empty under its contents`);
            for (const r of parts)
              if (r.right > column + 1) out.push(`${id}: a part ${Math.round(r.right - column)} px past the header's column`);
            if (panel.scrollHeight > panel.clientHeight + 1) out.push(`${id}: its contents cut`);
            return out;
          }, id)),
        );
      }
      expect(found).toEqual([]);
      expect(consoleProblems(w)).toEqual([]);
      await w.page.context().close();
    },
  );

  it('finds what it is asked to find: a caption over the picture, a picture cut by its container, a footer without padding, a clamped title', async () => {
    const w = await openPage(browser, { width: 1280, height: 800 });
    await gotoHydrated(w.page, `${svc.url}/`);
    await loadPictures(w.page);
    expect(await collisions(w.page)).toEqual([]);
    await w.page.evaluate(() => {
      const caption = document.querySelector<HTMLElement>('.slide[data-current="true"] .slide-caption .container > *')!;
      caption.style.maxWidth = 'none';
      caption.textContent = '一段很长的标题'.repeat(12);
      // A picture not marked to bleed, clipped by its container.
      const tile = document.querySelector<HTMLElement>('.hospital-tile img')!;
      tile.removeAttribute('data-bleed');
      Object.assign(tile.parentElement!.style, { overflow: 'hidden', width: '40px' });
      document.querySelector<HTMLElement>('.footer-main')!.style.paddingTop = '0';
      document.querySelector<HTMLElement>('.row-title')!.textContent = '一段很长的标题'.repeat(20);
    });
    const found = await collisions(w.page);
    expect(found).toEqual(
      expect.arrayContaining([
        'home banner: text over the artwork',
        expect.stringMatching(/^img\. \/_media\/.+ cut at .*right/),
        expect.stringMatching(/^footer: the name \d+ px from its top$/),
        'a.row-title.stretched-link cut by its line clamp: 一段很长的标题一段很长的标题一段',
      ]),
    );
    await w.page.context().close();
  });
});
