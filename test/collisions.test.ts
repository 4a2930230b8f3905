/**
 * Nothing collides, measured in real Chromium against the built service (every page and the 404
 * page at a phone's, a laptop's and the design's width, in the standard and the large-text mode
 * (长者模式), are the every-page pass's: test/every-page-*.test.ts; the check itself is
 * test/support/page-checks/collisions.ts): a banner's text (its lines as drawn, and its buttons) never overlaps its
 * artwork or the fixed header; no picture is cut by the viewport, by a container that clips, or
 * by its own box (object-fit), except on the sides it is marked to bleed (`data-bleed="left"`);
 * no title is cut by its line clamp (a summary may be); the header's bar holds its parts; and the footer
 * keeps its padding around the group's name. Here: the header's panels, and that the check finds what it should.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_SIZE_COOKIE } from '../shared/constants.js';
import { consoleProblems, gotoHydrated, openPage, startSiteAndChromium, stopSiteAndChromium } from './support/browser.js';
import { collisions } from './support/page-checks/collisions.js';
import { loadPictures } from './support/page-checks/pictures.js';
import { type RunningService } from './support/start-service.js';

describe('no collisions, in Chromium', () => {
  let svc: RunningService;
  let browser: Browser;
  beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
  afterAll(() => stopSiteAndChromium({ svc, browser }));

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
    expect(await loadPictures(w.page)).toEqual([]);
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
