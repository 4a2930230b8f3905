/**
 * Typesetting as drawn (test/typesetting.test.ts and the every-page pass): a title, summary or
 * heading that ends with a line of one character, or breaks inside a listed term (client/typeset.ts).
 */
import type { Page } from 'playwright-core';
import { TERMS } from '../../../client/typeset.js';

/** Titles, summaries and headings: what is read first and shows its last line. */
const TYPESET_SELECTOR = [
  'h1',
  'h2',
  'h3',
  'h4',
  '.page-banner-title',
  '.page-banner-lead',
  '.slide-title',
  '.slide-subtitle',
  '.section-lead',
  '.card-title',
  '.card-text',
  '.row-title',
  '.row-text',
  '.treatment-tile p',
  '.intl-summary',
  '.hospital-lead',
  '.article-summary',
  '.film-summary',
  '.expert-specialty',
  '.panel-text',
  '.booking-prompt p',
  '.empty-state',
  '.search-result-title',
  '.search-result-snippet',
  '.search-empty-title',
  '.search-option-title',
  '.panel-hospital-name',
  '.panel-hospital-summary',
  '.text-prompt p',
].join(', ');

/**
 * Each title, summary and heading drawn on the page, cut into its lines as drawn: a line of one
 * character at its end (punctuation does not count; a text its clamp cuts has no end to judge),
 * and a listed term whose characters are not all on one line. One entry per fault.
 */
export function typesetFaults(page: Page) {
  return page.evaluate(
    ({ selector, terms }) => {
      const found: string[] = [];
      const shown = (el: Element) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || el.closest('[hidden], [inert], .sr-only')) return false;
        return getComputedStyle(el).visibility !== 'hidden';
      };
      const letter = (ch: string) => !/^[\p{P}\p{S}\s\u2060]$/u.test(ch);
      for (const el of Array.from(document.querySelectorAll(selector))) {
        if (!shown(el)) continue;
        const box = el.getBoundingClientRect();
        // The element's characters, each with the line it is drawn on.
        const chars: { ch: string; line: number; cut: boolean }[] = [];
        let line = -1;
        let lastTop = -Infinity;
        let lastHeight = 0;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
          if (!shown(node.parentElement!)) continue;
          for (let i = 0; i < node.data.length;) {
            const ch = String.fromCodePoint(node.data.codePointAt(i)!);
            range.setStart(node, i);
            range.setEnd(node, i + ch.length);
            i += ch.length;
            const rect = range.getClientRects()[0];
            if (!rect || rect.width === 0 || ch === '\u2060') continue;
            if (rect.top > lastTop + lastHeight / 2) {
              line++;
              lastTop = rect.top;
              lastHeight = rect.height;
            }
            chars.push({ ch, line, cut: rect.bottom > box.bottom + 1 });
          }
        }
        if (chars.length === 0) continue;
        const text = chars.map((c) => c.ch).join('');
        const name = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} 「${text.slice(0, 24)}」`;
        const clamped = chars.some((c) => c.cut);
        const lines = chars.at(-1)!.line + 1;
        if (!clamped && lines > 1) {
          const last = chars.filter((c) => c.line === lines - 1 && letter(c.ch));
          if (last.length === 1) found.push(`${name}: its last line is one character (${last[0]!.ch})`);
        }
        // Terms as a reader meets them, left to right, longer first (青光眼科 holds 青光眼, not 眼科).
        for (const match of text.matchAll(new RegExp(terms.join('|'), 'g'))) {
          const on = chars.slice(match.index, match.index + match[0].length);
          if (on.some((c) => c.cut)) continue;
          if (new Set(on.map((c) => c.line)).size > 1) found.push(`${name}: breaks inside ${match[0]}`);
        }
      }
      return found;
    },
    { selector: TYPESET_SELECTOR, terms: [...TERMS] },
  );
}
