/**
 * Hospitals and phone numbers as links (test/hospital-browser.test.ts and the every-page pass):
 * wherever a hospital is named, its name leads to its page (but on that page itself); wherever a
 * phone number is written, it is a tel: link that dials it.
 */
import type { Page } from 'playwright-core';
import { demoContent } from '../../../server/embedded-api/demo-content/index.js';
import { hospitalHref } from '../../../shared/site/href.js';

export interface Known {
  /** Each hospital's name and the address of its page. */
  hospitals: { name: string; href: string }[];
  /** Every phone number the content gives, as written. */
  phones: string[];
}

/** The demo content's hospitals and phone numbers. */
const DEMO_KNOWN: Known = {
  hospitals: [
    ...demoContent.domesticHospitals.map((h) => ({ name: h.name, href: hospitalHref(h) })),
    ...demoContent.internationalHospitals.map((h) => ({ name: h.name, href: hospitalHref({ id: h.id, abroad: true }) })),
  ],
  phones: [
    ...new Set([
      demoContent.contactUs.phone,
      ...(demoContent.contactUs.booking ? [demoContent.contactUs.booking.phone] : []),
      ...demoContent.contactUs.branches.map((b) => b.phone),
      ...[...demoContent.domesticHospitals, ...demoContent.internationalHospitals].map((h) => h.phone),
    ]),
  ],
};

/**
 * An element that says a hospital's name and is not in a link to its page, and a phone number not
 * in a tel: link to it, anywhere in the page's body (shown or not: a closed fold's text too). One
 * line each.
 */
export function unlinkedNamesAndPhones(page: Page, known: Known = DEMO_KNOWN): Promise<string[]> {
  return page.evaluate(({ hospitals, phones }) => {
    const found: string[] = [];
    // As read: the word joiners and no-break spaces typesetting adds are not part of the text.
    const read = (text: string) =>
      text
        .replace(/\u2060/g, '')
        .replace(/\s+/g, ' ')
        .trim();
    const digits = (text: string) => text.replace(/[^\d+]/g, '');
    const here = location.pathname + location.search;
    const linkOf = (el: Element) => el.closest('a[href]')?.getAttribute('href') ?? undefined;
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}`;
    // The innermost elements whose whole text is a hospital's name.
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (el.closest('script, style, noscript, template')) continue;
      const hospital = hospitals.find((h) => h.name === read(el.textContent ?? ''));
      if (!hospital || Array.from(el.children).some((c) => read(c.textContent ?? '') === hospital.name)) continue;
      const href = linkOf(el);
      if (href === hospital.href || (href === undefined && here === hospital.href)) continue;
      found.push(`${name(el)} names ${hospital.name} ${href === undefined ? 'without a link' : `in a link to ${href}`}`);
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement!;
      if (el.closest('script, style, noscript, template')) continue;
      const text = read(node.textContent ?? '');
      for (const phone of phones) {
        if (!text.includes(phone)) continue;
        const href = el.closest('a[href]')?.getAttribute('href');
        if (href?.startsWith('tel:') && digits(href) === digits(phone)) continue;
        found.push(`${name(el)} writes ${phone} ${href ? `in a link to ${href}` : 'without a tel: link'}`);
      }
    }
    return found;
  }, known);
}
