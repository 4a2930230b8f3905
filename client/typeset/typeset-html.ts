/**
 * HTML typeset as typeset.tsx does text: a search result's highlighted title and snippet, and an
 * article's body (its headings as titles, the rest as running text). Apart from the layout's
 * typesetting, so that a first view of a page without either does not load it.
 */
import { usePhrases, type Phrases } from './phrases.js';
import { marksOf, NUMBER_AND_UNIT } from './typeset.js';

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
