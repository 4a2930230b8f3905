/**
 * Typesetting the content's text for the page, writing no character into it: what is copied, read
 * aloud or found in the page is the content's text exactly (docs/product/typesetting.md).
 * - A title (a heading, a card's title or summary, a lead, an address) breaks only between its
 *   phrases: a `<wbr>` between them, inside `.phrases` (`word-break: keep-all`: no other break
 *   between two characters). Where the breaks come from: phrases.ts.
 * - A number keeps its unit (1288 号, 18层, 3.5 万): the two in a `.nobr` span.
 * HTML (a search result's highlights, an article's body, whose paragraphs are running text) is
 * typeset the same way by typeset-html.ts.
 */
import { escapeHtml } from '../../shared/escape-json.js';
import { boundedMemo } from './bounded-memo.js';
import { usePhrases } from './phrases.js';

/** A number and the character after it, a space between or not. */
export const NUMBER_AND_UNIT = /\d[\d.,:]*\s?\p{Script=Han}/gu;

type Range = readonly [start: number, end: number];

/** Where `text` gets a `<wbr>`, and which ranges are kept on one line. */
export function marksOf(text: string, breaks: readonly number[] | undefined) {
  const nobr: Range[] = [...text.matchAll(NUMBER_AND_UNIT)].map((m) => [m.index, m.index + m[0].length]);
  const inside = (i: number) => nobr.some(([start, end]) => i > start && i < end);
  return { wbr: (breaks ?? []).filter((i) => !inside(i)), nobr };
}

/**
 * A title's markup: its text, escaped, with a `<wbr>` between its phrases. Drawn as the element's
 * HTML, which React writes as it is: a title of a dozen phrases is one element, not two dozen nodes
 * (a render of the home page draws about 70 titles).
 */
function titleHtml(text: string, breaks: readonly number[] | undefined): string {
  const { wbr, nobr } = marksOf(text, breaks);
  const events = [...wbr.map((at) => ({ at, end: at })), ...nobr.map(([at, end]) => ({ at, end }))].sort((a, b) => a.at - b.at);
  let html = '';
  let at = 0;
  for (const event of events) {
    html += escapeHtml(text.slice(at, event.at));
    html += event.end === event.at ? '<wbr>' : `<span class="nobr">${escapeHtml(text.slice(event.at, event.end))}</span>`;
    at = event.end;
  }
  return html + escapeHtml(text.slice(at));
}

const kept = boundedMemo<string>(2 * 1024 * 1024, (html) => html.length * 2);

/** A title: its phrases with a `<wbr>` between them; text not set by phrases, as running text. */
export function Typeset({ text }: { text: string }) {
  const breaks = usePhrases().breaks(text);
  const html = kept(breaks ? `p${text}` : `r${text}`, () => titleHtml(text, breaks));
  return <span className={breaks ? 'phrases' : undefined} dangerouslySetInnerHTML={{ __html: html }} />;
}
