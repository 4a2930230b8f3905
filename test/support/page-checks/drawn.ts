/**
 * What a visitor sees on any page (test/visual.test.ts and the every-page pass): text or targets
 * too small, a grid's lone last card, anything drawn past the window's side, placeholder text,
 * what every page carries (the booking line, the filings, the WeChat code), and one page under its
 * own title once hydrated.
 */
import type { Page } from 'playwright-core';
import { ROUTES } from '../../../shared/site/route-table.js';
import { demoContent } from '../../../server/embedded-api/demo-content/index.js';
import { sampleUrl } from '../sample-urls.js';

/** Visible text under `minPx` CSS px, and visible targets (links, buttons) smaller than `minTarget` either way. */
function tooSmall(page: Page, minPx: number, minTarget: number) {
  return page.evaluate(
    ([minPx, minTarget]) => {
      const visible = (el: Element) => {
        const cs = getComputedStyle(el);
        return cs.display !== 'none' && cs.visibility !== 'hidden' && !el.closest('.sr-only, [hidden]');
      };
      // Rendered size in CSS px: the font size times the zoom the element is drawn at.
      const px = (el: Element) => parseFloat(getComputedStyle(el).fontSize) * (el as HTMLElement).currentCSSZoom;
      const text: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || !n.textContent?.trim() || el.closest('script, style') || !visible(el)) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        if (range.getBoundingClientRect().width === 0) continue;
        if (px(el) < minPx) text.push(`${el.tagName}.${el.className} ${px(el).toFixed(1)} px: ${n.textContent.trim().slice(0, 16)}`);
      }
      const targets: string[] = [];
      for (const el of Array.from(document.querySelectorAll('a[href], button'))) {
        // Links inside running text are exempt (WCAG 2.5.8); the skip link shows on focus only.
        if (!visible(el) || el.closest('.rich-text') || el.classList.contains('skip-link')) continue;
        let box = el.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        // A stretched link's target is its whole card.
        if (el.classList.contains('stretched-link')) {
          let card = el.parentElement;
          while (card && getComputedStyle(card).position === 'static') card = card.parentElement;
          if (card) box = card.getBoundingClientRect();
        }
        if (box.width < minTarget || box.height < minTarget)
          targets.push(
            `${el.tagName}.${el.className} ${box.width.toFixed(0)}×${box.height.toFixed(0)}: ${el.textContent?.trim().slice(0, 16)}`,
          );
      }
      return { text, targets };
    },
    [minPx, minTarget] as const,
  );
}

/** Grids whose last row holds a single card that does not span the row. */
export function loneCards(page: Page) {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const grid of Array.from(document.querySelectorAll<HTMLElement>('.grid2, .grid3, .grid4'))) {
      const items = Array.from(grid.children) as HTMLElement[];
      if (items.length < 2 || getComputedStyle(grid).display !== 'grid') continue;
      const columns = getComputedStyle(grid).gridTemplateColumns.split(' ').length;
      if (columns < 2) continue;
      const last = items.at(-1)!.getBoundingClientRect();
      const row = items.filter((i) => Math.abs(i.getBoundingClientRect().top - last.top) < 2);
      if (row.length === 1 && last.width < grid.getBoundingClientRect().width * 0.95)
        found.push(`${grid.className}: ${items.length} items in ${columns} columns`);
    }
    return found;
  });
}

/** Visible text under 12 CSS px and targets under 24 CSS px, one line each. */
export async function smallThings(page: Page): Promise<string[]> {
  const { text, targets } = await tooSmall(page, 12, 24);
  return [...text, ...targets];
}

/** The page wider than the window, or anything drawn past its right edge (tabs scroll inside their row); the first three. */
export function pastTheSide(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    if (document.body.scrollWidth * document.body.currentCSSZoom > innerWidth + 1) out.push(`body ${document.body.scrollWidth}`);
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('main *, header *, footer *'))) {
      if (el.closest('.section-tabs ul, .sr-only, .header-panel, .carousel')) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > innerWidth + 1) out.push(`${el.tagName}.${el.className} ${Math.round(r.right)}`);
    }
    return out.slice(0, 3);
  });
}

/** Visible text holding a placeholder: a made-up .example address, 某 for a name. */
export async function placeholders(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  return [...text.matchAll(/.{0,12}(?:\.example\b|某).{0,12}/g)].map((m) => `placeholder: ${m[0]}`);
}

const contact = demoContent.contactUs;
export const telOf = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/**
 * What every page carries, its pictures loaded: the booking line with its number (a tel: link in
 * the header's top bar, phones included), on a wide screen the 预约咨询 button to the booking
 * section, the ICP and public-security filings with their links, and the WeChat QR code drawn.
 */
export function missingFurniture(page: Page, wide: boolean) {
  return page.evaluate(
    ({ phone, tel, filings, account, wide }) => {
      const out: string[] = [];
      const shown = (el: Element | null): el is HTMLElement =>
        !!el && el.getBoundingClientRect().width > 0 && getComputedStyle(el).visibility !== 'hidden';
      const hotline = document.querySelector('.top-hotline');
      if (!shown(hotline)) out.push('no booking line in view');
      else if (hotline.getAttribute('href') !== tel || !hotline.textContent?.includes(phone))
        out.push(`booking line ${hotline.getAttribute('href')} 「${hotline.textContent}」`);
      if (wide) {
        const book = document.querySelector('a.book-btn');
        if (!shown(book) || book.textContent !== '预约咨询' || book.getAttribute('href') !== '/lxwm/index#booking')
          out.push(`no 预约咨询 button to the booking section`);
      }
      const links = Array.from(document.querySelectorAll<HTMLAnchorElement>('.footer-filings a'));
      const seen = JSON.stringify(links.map((a) => [a.textContent, a.href]));
      if (seen !== JSON.stringify(filings)) out.push(`filings ${seen}`);
      const qr = document.querySelector<HTMLImageElement>('.footer-wechat img');
      if (!qr?.alt.includes(account)) out.push(`the WeChat code's alt: ${qr?.alt}`);
      if (!qr || qr.naturalWidth === 0) out.push('the WeChat code not drawn');
      return out;
    },
    {
      phone: contact.booking!.phone,
      tel: telOf(contact.booking!.phone),
      filings: [
        [contact.filings!.icp, contact.filings!.icpUrl],
        [contact.filings!.publicSecurity, contact.filings!.publicSecurityUrl],
      ],
      account: contact.wechat!.account,
      wide,
    },
  );
}

/** Each route's title, by its sample address; a page of one item puts the item's title before it (docs/product/routes.md). */
const TITLES = new Map(Object.values(ROUTES).map((route) => [sampleUrl(route.path), { name: route.title, ofOne: 'needsId' in route }]));

/**
 * A hydrated page that is not one page under its route's title: a second copy of the page (a
 * lazy route not loaded before hydrating appends one), no header or main, or another title.
 */
export async function notOnePage(page: Page, url: string): Promise<string[]> {
  const { title, headers, mains } = await page.evaluate(() => ({
    title: document.title,
    headers: document.querySelectorAll('header.site-header').length,
    mains: document.querySelectorAll('main').length,
  }));
  const out: string[] = [];
  if (headers !== 1) out.push(`${headers} site headers`);
  if (mains !== 1) out.push(`${mains} main elements`);
  const expected = TITLES.get(url);
  if (
    expected &&
    !(expected.ofOne ? title.endsWith(` - ${expected.name}`) && title.length > expected.name.length + 3 : title === expected.name)
  )
    out.push(`title "${title}", not ${expected.ofOne ? `an item's title and " - ${expected.name}"` : `"${expected.name}"`}`);
  return out;
}
