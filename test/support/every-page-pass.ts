/**
 * One pass over every page (the 21 and the 404) in each width and text size, every check a page
 * is held to made on the same visit, rather than one visit per check: axe-core's violations
 * (./axe.ts), typesetting (page-checks/typesetting.ts), collisions (page-checks/collisions.ts),
 * pictures drawn larger than their variant (page-checks/pictures.ts), controls drawn under
 * something else or a row of tabs that hides that it scrolls (page-checks/controls.ts), and what
 * a visitor sees on any page (page-checks/drawn.ts: text or targets too small, a grid's lone last
 * card, anything past the window's side, placeholder text, the booking line, filings and WeChat
 * code every page carries); on the home and search pages, then the header's search, open with its
 * suggestions, on the same visit. Each suite that owns a check keeps the tests that show the check
 * finds what it should (test/accessibility, collisions, controls, pictures, typesetting, visual).
 * Checks that only read come first; loading the pictures scrolls.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { axeViolations } from './axe.js';
import {
  expectNothingFound,
  loadPictures,
  onEach,
  openHeaderSearch,
  startSiteAndChromium,
  stopSiteAndChromium,
  type Mode,
} from './browser.js';
import { collisions } from './page-checks/collisions.js';
import { coveredControls, coveredSearch, tabRowFaults } from './page-checks/controls.js';
import { loneCards, missingFurniture, pastTheSide, placeholders, smallThings } from './page-checks/drawn.js';
import { upscaled } from './page-checks/pictures.js';
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
  | 'furniture';

export interface PassMode extends Mode {
  checks: readonly Check[];
}

/** What the checks of `mode` find on the page as it is, one line each, named by check. */
async function lookAt(page: Page, url: string, mode: PassMode): Promise<string[]> {
  const has = (check: Check) => mode.checks.includes(check);
  const found: string[] = [];
  const add = (check: Check, lines: string[]) => found.push(...lines.map((line) => `${check}: ${line}`));
  if (mode.large && (await page.evaluate(() => document.documentElement.dataset.text)) !== 'large')
    found.push('not in the large-text mode');
  if (has('axe')) add('axe', await axeViolations(page));
  if (has('typesetting')) add('typesetting', await typesetFaults(page));
  if (has('small-things')) add('small-things', await smallThings(page));
  if (has('grids')) add('grids', await loneCards(page));
  if (has('placeholders')) add('placeholders', await placeholders(page));
  found.push(...(await loadPictures(page)).map((src) => `a picture neither loaded nor failed: ${src}`));
  if (has('past-the-side')) add('past-the-side', await pastTheSide(page));
  if (has('furniture')) add('furniture', await missingFurniture(page, mode.width > 500));
  if (has('collisions')) add('collisions', await collisions(page));
  if (has('pictures')) add('pictures', await upscaled(page));
  if (has('controls')) {
    add('controls', await coveredControls(page));
    add(
      'controls',
      (await tabRowFaults(page)).faults.map((f) => `tabs: ${f}`),
    );
  }
  found.push(...(await lookAtHeaderSearch(page, url, mode)));
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
  if (!(url === '/' || url === sampleUrl('/search')) || !(controls || typesetting)) return [];
  await openHeaderSearch(page, '白内障');
  const found: string[] = [];
  if (controls) found.push(...(await coveredSearch(page)).map((c) => `header search: ${c}`));
  if (typesetting) found.push(...(await typesetFaults(page)).map((f) => `header search: typesetting: ${f}`));
  return found;
}

/** A suite of one test per mode: every page, every check of the mode, nothing found. */
export function everyPagePass(title: string, modes: readonly PassMode[]): void {
  describe(title, () => {
    let svc: RunningService;
    let browser: Browser;
    beforeAll(async () => ({ svc, browser } = await startSiteAndChromium()));
    afterAll(() => stopSiteAndChromium({ svc, browser }));

    it.each(modes.map((mode) => ({ ...mode, named: mode.checks.join(', ') })))(
      'every page at $width px (large text: $large): nothing found by $named',
      (mode) => expectNothingFound(browser, svc.url, mode, (page) => onEach(page, svc.url, EVERY_PAGE, (url) => lookAt(page, url, mode))),
      300_000,
    );
  });
}
