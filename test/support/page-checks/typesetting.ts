/**
 * Typesetting as drawn (test/typesetting.test.ts and the every-page pass): a title, summary or
 * heading that ends with a line of one character, or breaks between two lines inside one of its
 * phrases (client/typeset/typeset.tsx): a title's lines break only at a `<wbr>` or a space.
 */
import type { Page } from 'playwright-core';

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
 * and, in its phrases (`.phrases`), a line that starts neither after a `<wbr>` nor at a space. One
 * entry per fault.
 */
export function typesetFaults(page: Page) {
  return page.evaluate((selector) => {
    const found: string[] = [];
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || el.closest('[hidden], [inert], .sr-only')) return false;
      return getComputedStyle(el).visibility !== 'hidden';
    };
    const letter = (ch: string) => !/^[\p{P}\p{S}\s]$/u.test(ch);
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (!shown(el)) continue;
      const box = el.getBoundingClientRect();
      // The element's characters, each with the line it is drawn on, its phrases and whether a line may break before it (after a <wbr> or a space).
      const chars: { ch: string; line: number; cut: boolean; phrases: Element | null; breakable: boolean }[] = [];
      let line = -1;
      let lastTop = -Infinity;
      let lastHeight = 0;
      let breakable = false;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node instanceof Element) {
          if (node.tagName === 'WBR') breakable = true;
          continue;
        }
        const text = node as Text;
        if (!shown(text.parentElement!)) continue;
        const phrases = text.parentElement!.closest('.phrases');
        for (let i = 0; i < text.data.length;) {
          const ch = String.fromCodePoint(text.data.codePointAt(i)!);
          range.setStart(text, i);
          range.setEnd(text, i + ch.length);
          i += ch.length;
          const rect = range.getClientRects()[0];
          // A space that ends its line is not drawn: the break after it is allowed all the same.
          if (!rect || rect.width === 0) {
            if (/\s/.test(ch)) breakable = true;
            continue;
          }
          if (rect.top > lastTop + lastHeight / 2) {
            line++;
            lastTop = rect.top;
            lastHeight = rect.height;
          }
          chars.push({ ch, line, cut: rect.bottom > box.bottom + 1, phrases, breakable });
          breakable = /\s/.test(ch);
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
      for (let i = 1; i < chars.length; i++) {
        const [before, after] = [chars[i - 1]!, chars[i]!];
        if (after.line === before.line || after.cut || !after.phrases || after.phrases !== before.phrases) continue;
        if (after.breakable || /\s/.test(after.ch)) continue;
        const at =
          chars
            .slice(Math.max(0, i - 6), i)
            .map((c) => c.ch)
            .join('') +
          '|' +
          chars
            .slice(i, i + 6)
            .map((c) => c.ch)
            .join('');
        found.push(`${name}: breaks inside a phrase (${at})`);
      }
    }
    return found;
  }, TYPESET_SELECTOR);
}

/** A title's phrases as drawn: its text, where its lines start and where its `<wbr>`s are (UTF-16 offsets into the text). */
export interface DrawnPhrases {
  text: string;
  lineStarts: number[];
  wbr: number[];
}

/** Every title set by its phrases (`.phrases`) drawn on the page, in the page's order. */
export function drawnPhrases(page: Page): Promise<DrawnPhrases[]> {
  return page.evaluate(() => {
    const drawn: DrawnPhrases[] = [];
    for (const el of Array.from(document.querySelectorAll('.phrases'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || el.closest('[hidden], [inert], .sr-only')) continue;
      const found: DrawnPhrases = { text: '', lineStarts: [], wbr: [] };
      let lastTop = -Infinity;
      let lastHeight = 0;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node instanceof Element) {
          if (node.tagName === 'WBR') found.wbr.push(found.text.length);
          continue;
        }
        const text = node as Text;
        for (let i = 0; i < text.data.length; i++) {
          range.setStart(text, i);
          range.setEnd(text, i + 1);
          const rect = range.getClientRects()[0];
          if (rect && rect.width > 0 && rect.top > lastTop + lastHeight / 2) {
            if (lastTop !== -Infinity) found.lineStarts.push(found.text.length + i);
            lastTop = rect.top;
            lastHeight = rect.height;
          }
        }
        found.text += text.data;
      }
      drawn.push(found);
    }
    return drawn;
  });
}
