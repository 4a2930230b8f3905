/**
 * Where a title may break: between the phrases BudouX finds (Google's phrase segmenter, its
 * Simplified Chinese model), where the text's words agree, and never where typography forbids it.
 * BudouX's model is small and splits words it has not learnt (眼|睛, 白|内障, 天|河区); the word
 * boundaries of ICU's dictionary (Intl.Segmenter, in Node and every current browser) veto those,
 * so a break is only ever one BudouX proposes (docs/decisions/061). The model is in this module
 * alone: the server imports it, the browser loads it with its first navigation (phrases-in-browser.ts).
 */
import { Parser, zhHansModel } from 'budoux';
import { boundedMemo } from './bounded-memo.js';

const parser = new Parser(zhHansModel);
// Absent in older browsers (Firefox before 125): BudouX's phrases are then kept as they are.
const words = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('zh-Hans', { granularity: 'word' }) : undefined;

const SPACE = /\s/u;
/** Letters and digits of scripts written with spaces: a run of them is one word, never broken. */
const SPACED = /[\p{L}\p{N}]/u;
const HAN = /\p{Script=Han}/u;
const DIGIT = /\p{Nd}/u;
/** Chinese numerals: as a number in digits, one keeps the character after it (二十|年, 三|个, 一|家). */
const NUMERAL = /[〇一二三四五六七八九十百千万亿两零]/u;
/** Nothing breaks after an opening bracket or quote, or a currency sign (（, “, ￥). */
const OPENING = /[\p{Ps}\p{Pi}\p{Sc}]/u;
/** A dash (——) may start a line, as browsers allow, but is never parted. */
const DASH = /[\u2014\u2015\u2e3a\u2e3b]/u;
/** Nothing breaks before other punctuation or a symbol (，。：？！）” ％ ℃ …). */
const CLOSING = /[\p{P}\p{S}]/u;

/** True where a break between text[i - 1] and text[i] is allowed by typography. */
function typographyAllows(text: string, i: number): boolean {
  const before = text[i - 1]!;
  const after = text[i]!;
  if (/[\udc00-\udfff]/.test(after)) return false; // inside a character beyond the BMP
  if (SPACE.test(before) || SPACE.test(after)) return false; // the space is a break itself
  const word = (c: string) => SPACED.test(c) && !HAN.test(c);
  if (word(before) && word(after)) return false; // 1288, OCT
  if ((DIGIT.test(before) || NUMERAL.test(before)) && HAN.test(after)) return false; // a number and its unit: 10 件, 二十年
  if (DASH.test(after)) return !DASH.test(before);
  if (OPENING.test(before) || (CLOSING.test(after) && !OPENING.test(after))) return false;
  return !(DIGIT.test(after) && /[.,:]/.test(before) && DIGIT.test(text[i - 2] ?? '')); // 3.5, 8:30
}

function computeBreaks(text: string): readonly number[] {
  const inWord = new Set<number>();
  if (words) {
    let end = 0;
    for (const { index, segment } of words.segment(text)) {
      for (let i = index + 1; i < index + segment.length; i++) inWord.add(i);
      end = index + segment.length;
    }
    if (end !== text.length) inWord.clear();
  }
  return parser.parseBoundaries(text).filter((i) => !inWord.has(i) && typographyAllows(text, i));
}

const kept = boundedMemo<readonly number[]>(2 * 1024 * 1024, (breaks) => breaks.length * 8);

/** The offsets (UTF-16) before which a line may break in `text`, ascending; kept for the next render. */
export const phraseBreaks = (text: string): readonly number[] => kept(text, () => computeBreaks(text));
