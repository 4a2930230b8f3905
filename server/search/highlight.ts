/**
 * A result's title and snippet as HTML, with the words that matched in `<mark>` (docs/product/search.md).
 * Every piece of text is escaped by the one escape (shared/escape-json.ts); the only markup is our
 * own `<mark>`. Matches are found in the folded text (白內障 marks where 白内障 matched) and marked
 * in the original; a pinyin term marks the characters it spells (chen li marks 陈立).
 */
import { pinyin } from 'pinyin-pro';
import { escapeHtml } from '../../shared/escape-json.js';
import { foldWithOffsets } from './fold.js';

/** A snippet shows about this many characters around its first match. */
const SNIPPET_CHARS = 72;
const BEFORE_MATCH = 16;
const LATIN = /^[a-z]+$/;
const HAN = /\p{Script=Han}/u;

type Range = [start: number, end: number];

/** Where the terms occur in `text`, as ranges of the original text, merged; with `spelled`, also where pinyin terms spell it. */
function matchRanges(text: string, terms: readonly string[], spelled = true): Range[] {
  const { folded, from } = foldWithOffsets(text);
  const ranges: Range[] = [];
  const add = (start: number, end: number) => ranges.push([from[start]!, from[end]!]);
  for (const term of terms) {
    for (let at = folded.indexOf(term); at !== -1 && term.length > 0; at = folded.indexOf(term, at + 1)) add(at, at + term.length);
  }
  const pinyinTerms = spelled ? terms.filter((t) => t.length >= 2 && LATIN.test(t)) : [];
  if (pinyinTerms.length > 0 && HAN.test(folded)) for (const [start, end] of pinyinRanges(folded, pinyinTerms)) add(start, end);
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Range[] = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  return merged;
}

/** The runs of Han characters whose syllables, or their initials, spell a term (or begin to). */
function pinyinRanges(folded: string, terms: readonly string[]): Range[] {
  // One syllable per UTF-16 unit: a Han character's own (read alone), or nothing.
  const syllables =
    [...folded].length === folded.length ? Array.from(folded, (c) => (HAN.test(c) ? pinyin(c, { toneType: 'none', v: true }) : '')) : [];
  const out: Range[] = [];
  for (const term of terms) {
    for (let i = 0; i < syllables.length; i++) {
      let spelled = '';
      let initials = '';
      for (let j = i; j < syllables.length && syllables[j]; j++) {
        const before = spelled.length;
        spelled += syllables[j]!;
        initials += syllables[j]![0]!;
        if ((spelled.startsWith(term) && before < term.length) || initials === term) {
          out.push([i, j + 1]);
          break;
        }
        if (!term.startsWith(spelled) && !term.startsWith(initials)) break;
      }
    }
  }
  return out;
}

/** `text` as HTML, escaped, the ranges in `<mark>`. */
function markedHtml(text: string, ranges: readonly Range[]): string {
  let html = '';
  let at = 0;
  for (const [start, end] of ranges) {
    html += `${escapeHtml(text.slice(at, start))}<mark>${escapeHtml(text.slice(start, end))}</mark>`;
    at = end;
  }
  return html + escapeHtml(text.slice(at));
}

/** A title with its matches marked. */
export function highlightTitle(title: string, terms: readonly string[]): string {
  return markedHtml(title, matchRanges(title, terms));
}

/**
 * Pinyin is indexed for titles and names only, so a snippet marks only what it says in characters.
 * A piece of the first text that has a match (or of the first text, when none has), about
 * SNIPPET_CHARS characters from a little before its first match, cut on characters, with `…` where it is cut.
 */
export function highlightSnippet(texts: readonly string[], terms: readonly string[]): string {
  const candidates = texts.filter((t) => t.length > 0);
  for (const text of candidates) {
    const ranges = matchRanges(text, terms, false);
    if (ranges.length > 0) return window(text, ranges[0]![0], terms);
  }
  return candidates[0] ? window(candidates[0], 0, terms) : '';
}

function window(text: string, firstMatch: number, terms: readonly string[]): string {
  const chars = [...text];
  // Offsets in code units to characters: count the characters before the match.
  const matchAt = [...text.slice(0, firstMatch)].length;
  const start = Math.max(0, Math.min(matchAt - BEFORE_MATCH, chars.length - SNIPPET_CHARS));
  const end = Math.min(chars.length, start + SNIPPET_CHARS);
  const piece = chars.slice(start, end).join('');
  return `${start > 0 ? '…' : ''}${markedHtml(piece, matchRanges(piece, terms, false))}${end < chars.length ? '…' : ''}`;
}
