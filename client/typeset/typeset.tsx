/**
 * Typesetting the content's text for the page, writing no character into it: what is copied, read
 * aloud or found in the page is the content's text exactly (docs/product/typesetting.md).
 * - A title (a heading, a card's title or summary, a lead, an address) breaks only between its
 *   phrases: a `<wbr>` between them, inside `.phrases` (`word-break: keep-all`: no other break
 *   between two characters). Where the breaks come from: phrases.ts.
 * - A number keeps its unit (1288 号, 18层, 3.5 万): the two in a `.nobr` span.
 * - Running text (an article) breaks between any two characters, as Chinese does, keeps its units,
 *   and never ends a block with a line of one character: its last two characters are kept together.
 */
import type { ReactNode } from 'react';
import { usePhrases, type Phrases } from './phrases.js';

/** A number and the character after it, a space between or not. */
const NUMBER_AND_UNIT = /\d[\d.,:]*\s?\p{Script=Han}/gu;

type Range = readonly [start: number, end: number];

/** Where `text` gets a `<wbr>`, and which ranges are kept on one line. */
function marksOf(text: string, breaks: readonly number[] | undefined) {
  const nobr: Range[] = [...text.matchAll(NUMBER_AND_UNIT)].map((m) => [m.index, m.index + m[0].length]);
  const inside = (i: number) => nobr.some(([start, end]) => i > start && i < end);
  return { wbr: (breaks ?? []).filter((i) => !inside(i)), nobr };
}

/** A title's text as React nodes: its phrases with a `<wbr>` between them. */
export function Typeset({ text }: { text: string }) {
  const breaks = usePhrases().breaks(text);
  const { wbr, nobr } = marksOf(text, breaks);
  const events = [...wbr.map((at) => ({ at, end: at })), ...nobr.map(([at, end]) => ({ at, end }))].sort((a, b) => a.at - b.at);
  const nodes: ReactNode[] = [];
  let at = 0;
  for (const [key, event] of events.entries()) {
    if (event.at > at) nodes.push(text.slice(at, event.at));
    nodes.push(
      event.end === event.at ? (
        <wbr key={key} />
      ) : (
        <span className="nobr" key={key}>
          {text.slice(event.at, event.end)}
        </span>
      ),
    );
    at = event.end;
  }
  if (at < text.length) nodes.push(text.slice(at));
  return breaks ? <span className="phrases">{nodes}</span> : <>{nodes}</>;
}

/** An HTML fragment's tags, entities and runs of text. */
const TOKEN = /<[^>]*>|&(?:#\d+|#x[\da-f]+|[a-z]+);|[^<&]+|[<&]/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** An entity's character (an unknown one stands for one character, U+FFFD). */
function decode(entity: string): string {
  const name = entity.slice(1, -1);
  if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? '\ufffd';
  const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
}

/**
 * An HTML fragment (escaped text and our own tags: a search highlight's `<mark>`, a heading in an
 * article) typeset as Typeset does its text: the breaks are found in its text, and the marks put
 * between its characters, never inside a tag or an entity. A number and its unit parted by a tag
 * are left as they are.
 */
function typesetHtml(html: string, phrases: Phrases): string {
  let text = '';
  /** For each UTF-16 unit of the text: where its source starts and ends in `html`, and which run of text (between two tags) holds it. */
  const from: number[] = [];
  const to: number[] = [];
  const run: number[] = [];
  let runs = 0;
  for (const m of html.matchAll(TOKEN)) {
    const token = m[0];
    if (token.length > 1 && token[0] === '<') {
      runs++;
      continue;
    }
    const entity = token.length > 1 && token[0] === '&';
    const chars = entity ? decode(token) : token;
    for (let k = 0; k < chars.length; k++) {
      from.push(entity ? m.index : m.index + k);
      to.push(entity ? m.index + token.length : m.index + k + 1);
      run.push(runs);
    }
    text += chars;
  }
  const breaks = phrases.breaks(text);
  const { wbr, nobr } = marksOf(text, breaks);
  // A <wbr> right after the character before it: outside a tag that opens before the next (<mark>).
  const inserts: { at: number; order: number; mark: string }[] = wbr.map((i) => ({ at: to[i - 1]!, order: 1, mark: '<wbr>' }));
  for (const [start, end] of nobr) {
    if (run[start] !== run[end - 1]) continue;
    inserts.push({ at: from[start]!, order: 2, mark: '<span class="nobr">' }, { at: to[end - 1]!, order: 0, mark: '</span>' });
  }
  inserts.sort((a, b) => a.at - b.at || a.order - b.order);
  let out = '';
  let at = 0;
  for (const insert of inserts) {
    out += html.slice(at, insert.at) + insert.mark;
    at = insert.at;
  }
  out += html.slice(at);
  return breaks ? `<span class="phrases">${out}</span>` : out;
}

/** typesetHtml with the page's phrases: for a search result's highlighted title and snippet. */
export function useTypesetHtml(): (html: string) => string {
  const phrases = usePhrases();
  return (html) => typesetHtml(html, phrases);
}

const HEADING = /(<h([1-6])\b[^>]*>)([\s\S]*?)(<\/h\2>)/gi;
/** A block's last two Han characters, with the punctuation after them. */
const LAST_TWO = /(\p{Script=Han}\p{Script=Han}[\p{P}\s]*)(<\/(?:p|li|dd|td|blockquote)>)/gu;

/** Running text's rules, in the text between the tags: units kept, and a block's last two characters. */
const runningHtml = (html: string) =>
  html
    .split(/(<[^>]*>)/)
    .map((part, i) => (i % 2 === 0 ? part.replace(NUMBER_AND_UNIT, '<span class="nobr">$&</span>') : part))
    .join('')
    .replace(LAST_TWO, '<span class="nobr">$1</span>$2');

/** Sanitised HTML from the content API (an article's body): its headings typeset as titles, the rest as running text. */
export function useRichHtml(): (html: string) => string {
  const phrases = usePhrases();
  return (html) => {
    let out = '';
    let at = 0;
    for (const m of html.matchAll(HEADING)) {
      out += runningHtml(html.slice(at, m.index)) + m[1] + typesetHtml(m[3]!, phrases) + m[4];
      at = m.index + m[0].length;
    }
    return out + runningHtml(html.slice(at));
  };
}
