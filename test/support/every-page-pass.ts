/**
 * One pass over every page (the 21 and the 404) in each width of one text size, every check a
 * page is held to made on the same visit, rather than one visit per check: axe-core's violations
 * (./axe.ts), typesetting (page-checks/typesetting.ts), collisions (page-checks/collisions.ts),
 * pictures drawn larger than their variant or asking for far more (page-checks/pictures.ts),
 * controls drawn under something else or a row of tabs that hides that it scrolls
 * (page-checks/controls.ts), focus tabbed forward and back (page-checks/focus.ts), text spaced
 * out by a visitor and the site's own line and paragraph spacing (page-checks/text-spacing.ts),
 * what a visitor sees on any page (page-checks/drawn.ts: text or targets too small, a grid's lone
 * last card, anything past the window's side, placeholder text, the booking line, filings and
 * WeChat code every page carries, one page under its route's title once hydrated), hospitals'
 * names and phone numbers that are not links of their kind (page-checks/links.ts), and the size
 * text is drawn at (page-checks/text-size.ts; test/text-size-by-width.test.ts the widths between);
 * on the home and search pages, then the header's search, open with its suggestions, on the same
 * visit. Each suite that owns a check keeps the tests that show the check finds what it should
 * (test/accessibility, collisions, controls, pictures, typesetting, text-size-by-width,
 * visual). Loading the pictures scrolls through the page and back to its top; axe follows it.
 *
 * A page is visited once per text size, at the narrowest width, and its window then widened to
 * each wider one, as a visitor turns a phone or widens a window: a visit costs Chromium about
 * twice what a resize does, and a widened page is laid out as one loaded at its width
 * (docs/decisions/047). What differs is the pictures Chromium holds: it keeps a wider variant it
 * already has, here and from the page before, so the pictures check works out the variant a page
 * loaded at the width gets from its `sizes` (page-checks/pictures.ts; test/pictures.test.ts shows
 * it is the one Chromium chooses). The home and search pages, whose header search the checks
 * open, are visited anew at each width.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { axeViolations } from './axe.js';
import {
  expectNothingFound,
  gotoHydrated,
  onEach,
  openHeaderSearch,
  startSiteAndChromium,
  stopSiteAndChromium,
  widen,
  windowAt,
  type Mode,
} from './browser.js';
import { collisions } from './page-checks/collisions.js';
import { coveredControls, coveredSearch, tabRowFaults } from './page-checks/controls.js';
import { focusFaults } from './page-checks/focus.js';
import { textSizeFaults, textSizeFloor } from './page-checks/text-size.js';
import { spacedTextFaults, spacingFaults } from './page-checks/text-spacing.js';
import { loneCards, missingFurniture, notOnePage, pastTheSide, placeholders, smallThings } from './page-checks/drawn.js';
import { unlinkedNamesAndPhones } from './page-checks/links.js';
import { loadPictures, overAskedIn, upscaledIn, variantsChosen } from './page-checks/pictures.js';
import { themeContrastFaults } from './page-checks/theme-contrast.js';
import { typesetFaults } from './page-checks/typesetting.js';
import { EVERY_PAGE, sampleUrl } from './sample-urls.js';
import type { RunningService } from './start-service.js';

export type Check =
  | 'axe'
  | 'typesetting'
  | 'collisions'
  | 'pictures'
  | 'controls'
  | 'small-things'
  | 'grids'
  | 'past-the-side'
  | 'placeholders'
  | 'furniture'
  | 'one-page'
  | 'focus'
  | 'text-spacing'
  | 'links'
  | 'theme-contrast'
  | 'text-size';

export interface PassMode extends Mode {
  checks: readonly Check[];
}

/** A width of the pass and the checks made at it. */
export interface PassWidth {
  width: number;
  checks: readonly Check[];
}

/** The home and search pages, whose header search the checks open: the next width's checks need them as loaded. */
const opensSearch = (url: string) => url === '/' || url === sampleUrl('/search');

/** Where a page's visit and checks are: named when a page does not end in time (onEach). */
interface Progress {
  stage: string;
}

/** What the checks of `mode` find on the page as it is, one line each, named by check. */
async function lookAt(page: Page, url: string, mode: PassMode, progress: Progress): Promise<string[]> {
  const has = (check: Check) => mode.checks.includes(check);
  const step = <T>(stage: string, work: () => Promise<T>) => ((progress.stage = `${mode.width} px: ${stage}`), work());
  const found: string[] = [];
  const add = (check: Check, lines: string[]) => found.push(...lines.map((line) => `${check}: ${line}`));
  if (mode.large && (await page.evaluate(() => document.documentElement.dataset.text)) !== 'large')
    found.push('not in the large-text mode');
  if (mode.contrast && (await page.evaluate(() => document.documentElement.dataset.theme)) !== 'contrast')
    found.push('not in the high-contrast theme');
  if (has('one-page')) add('one-page', await step('one page', () => notOnePage(page, url)));
  found.push(...(await step('loading the pictures', () => loadPictures(page))).map((src) => `a picture neither loaded nor failed: ${src}`));
  // After the scroll through the page that loads the pictures: axe judges contrast by what is drawn
  // at each element's place, and a part the browser skips while it is far from the window (the
  // footer, the home page's sections: docs/decisions/054) keeps a guessed height until it has
  // been drawn once at this width. AAA contrast (7:1) in every theme.
  if (has('axe')) add('axe', await step('axe', () => axeViolations(page)));
  if (has('typesetting')) add('typesetting', await step('typesetting', () => typesetFaults(page)));
  if (has('text-size'))
    add('text-size', await step('text size', () => textSizeFaults(page, textSizeFloor(mode.width, mode.large ?? false))));
  if (has('small-things')) add('small-things', await step('small things', () => smallThings(page)));
  if (has('grids')) add('grids', await step('grids', () => loneCards(page)));
  if (has('placeholders')) add('placeholders', await step('placeholders', () => placeholders(page)));
  if (has('past-the-side')) add('past-the-side', await step('past the side', () => pastTheSide(page)));
  if (has('furniture')) add('furniture', await step('furniture', () => missingFurniture(page, mode.width > 500)));
  if (has('links')) add('links', await step('links', () => unlinkedNamesAndPhones(page)));
  if (has('collisions')) add('collisions', await step('collisions', () => collisions(page)));
  if (has('text-spacing')) {
    add('text-spacing', await step('text spacing', () => spacedTextFaults(page)));
    add('text-spacing', await step('line and paragraph spacing', () => spacingFaults(page)));
  }
  // The header's and footer's controls are walked once, on the home page; elsewhere the main content.
  if (has('focus')) add('focus', await step('focus', () => focusFaults(page, url === '/' ? 'page' : 'main')));
  if (has('pictures')) {
    const pictures = await step('pictures', () => variantsChosen(page, 'by-sizes'));
    add('pictures', [...upscaledIn(pictures), ...overAskedIn(pictures)]);
  }
  if (has('controls')) {
    add('controls', await step('controls', () => coveredControls(page)));
    add(
      'controls',
      (await step('tabs', () => tabRowFaults(page))).faults.map((f) => `tabs: ${f}`),
    );
  }
  if (has('theme-contrast')) add('theme-contrast', await step('controls and focus rings at 4.5:1', () => themeContrastFaults(page)));
  found.push(...(await step('the header search', () => lookAtHeaderSearch(page, url, mode))));
  return found;
}

/**
 * The header's search open with its suggestions, over the home banner and over the search page,
 * on the visit that looked at the page itself (last: opening it changes the page).
 */
async function lookAtHeaderSearch(page: Page, url: string, mode: PassMode): Promise<string[]> {
  const controls = mode.checks.includes('controls');
  // The typesetting of the suggestions is looked at over the home page only.
  const typesetting = url === '/' && mode.checks.includes('typesetting');
  if (!opensSearch(url) || !(controls || typesetting)) return [];
  await openHeaderSearch(page, '白内障');
  const found: string[] = [];
  if (controls) found.push(...(await coveredSearch(page)).map((c) => `header search: ${c}`));
  if (typesetting) found.push(...(await typesetFaults(page)).map((f) => `header search: typesetting: ${f}`));
  return found;
}

/**
 * A suite of one test: every page in `large` text at each of `widths` (narrowest first), every
 * check of the width, nothing found; `contrast`: in the high-contrast theme.
 */
export function everyPagePass(title: string, large: boolean, widths: readonly PassWidth[], { contrast = false } = {}): void {
  describe(title, () => {
    let svc: RunningService;
    let browser: Browser;
    beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
    afterAll(() => stopSiteAndChromium({ svc, browser }));

    const named = widths.map(({ width, checks }) => `${width} px (${checks.join(', ')})`).join('; ');
    const [first, ...wider] = widths as [PassWidth, ...PassWidth[]];
    it(
      `every page (large text: ${large}${contrast ? ', high contrast' : ''}), at ${named}: nothing found`,
      () =>
        expectNothingFound(browser, svc.url, { ...first, large, contrast }, (page) => {
          const progress: Progress = { stage: `${first.width} px: visiting` };
          const look = async (url: string, mode: PassWidth) =>
            (await lookAt(page, url, { ...mode, large, contrast }, progress)).map((line) => `${mode.width} px: ${line}`);
          return onEach(
            page,
            svc.url,
            EVERY_PAGE,
            async (url) => {
              const found = await look(url, first);
              for (const mode of wider) {
                progress.stage = `${mode.width} px: ${opensSearch(url) ? 'visiting' : 'widening'}`;
                if (opensSearch(url)) {
                  await page.setViewportSize(windowAt(mode.width));
                  await gotoHydrated(page, svc.url + url);
                } else await widen(page, mode.width);
                found.push(...(await look(url, mode)));
              }
              // The next page is visited at the narrowest width.
              progress.stage = `${first.width} px: visiting`;
              await page.setViewportSize(windowAt(first.width));
              return found;
            },
            widths.length,
            () => progress.stage,
          );
        }),
      // Past a page's own deadline (onEach), so that a page that does not end is named.
      900_000,
    );
  });
}
