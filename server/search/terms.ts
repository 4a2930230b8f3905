/**
 * The terms text is indexed and searched by (docs/decisions/034). Chinese has no spaces, and a
 * word list splits what it does not know (ICU's splits 飞秒 into 飞|秒 and 悉尼 into 悉|尼), so
 * every run of Han characters is indexed as its overlapping character pairs (全飞秒 → 全飞, 飞秒):
 * any two adjacent characters a visitor types are found, known word or not. Letters and digits
 * are words (OCT, 27g). Names and titles are also indexed in pinyin: each character's syllable,
 * and each word (as Intl.Segmenter cuts them) joined and as initials (白内障 → bai, nei, zhang,
 * baineizhang, bnz), so that chen li, baineizhang and bnz find them.
 */
import { pinyin } from 'pinyin-pro';
import { fold } from './fold.js';

const segmenter = new Intl.Segmenter('zh-CN', { granularity: 'word' });
const HAN = /^\p{Script=Han}+$/u;
/** Runs of Han characters, and words of other letters and digits. */
const PIECES = /(\p{Script=Han}+)|(?:(?!\p{Script=Han})[\p{L}\p{N}])+/gu;
/** A letter-or-digit word longer than this is not a word anyone types. */
const WORD_MAX = 32;
/** A query has at most this many terms; the rest of what was typed is not searched for. */
const QUERY_TERMS_MAX = 12;

/** A run's character pairs; a lone character is its own term. */
function pairs(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** The terms of a document's text, folded (repeats kept: they count). A regular expression, not the segmenter: it is the hot path of indexing. */
export function textTerms(text: string): string[] {
  const out: string[] = [];
  for (const [piece, han] of fold(text).matchAll(PIECES)) {
    if (han) out.push(...pairs(han));
    else if (piece.length <= WORD_MAX) out.push(piece);
  }
  return out;
}

/** A text's words, folded: its runs of Han characters and its words of other letters and digits. */
export function wordsOf(text: string): string[] {
  return Array.from(fold(text).matchAll(PIECES), ([piece]) => piece);
}

/** The terms of a query: as a document's, each once, at most QUERY_TERMS_MAX. */
export function queryTerms(query: string): string[] {
  return [...new Set(textTerms(query))].slice(0, QUERY_TERMS_MAX);
}

/** Whether a query term is searched as a prefix: a lone Han character (it begins pairs), or two letters or more (pinyin being typed). */
export function isPrefixTerm(term: string): boolean {
  return HAN.test(term) ? term.length === 1 : term.length >= 2 && /^[a-z]+$/.test(term);
}

/** Each character's syllable, learnt once (pinyin-pro is slow per call; the characters are few). */
const readings = new Map<string, string>();
function syllableOf(char: string): string {
  let out = readings.get(char);
  if (out === undefined) readings.set(char, (out = pinyin(char, { toneType: 'none', v: true })));
  return out;
}

/**
 * How a text is read in pinyin: a `title` word by word, each character with its common reading; a
 * `word` (another name of an item: a city) whole, character by character; a person's `name` whole,
 * with surname readings.
 */
export type Reading = 'title' | 'word' | 'name';

/** A word's syllables, as `reading` reads it. */
const syllablesOfWord = (word: string, reading: Reading) =>
  reading === 'name' ? pinyin(word, { toneType: 'none', type: 'array', v: true, surname: 'head' }) : Array.from(word, syllableOf);

/** The syllables of a text's Han characters, in order. */
export function syllablesOf(text: string, reading: Reading): string[] {
  return Array.from(fold(text).matchAll(/\p{Script=Han}+/gu), ([run]) => syllablesOfWord(run, reading)).flat();
}

/**
 * The pinyin terms of a title, a word or a name: each character's syllable, and each word's joined
 * syllables and initials (a title's words as the segmenter cuts them; a word or a name whole).
 */
export function pinyinTerms(text: string, reading: Reading): string[] {
  const out: string[] = [];
  for (const [run] of fold(text).matchAll(/\p{Script=Han}+/gu)) {
    const words = reading === 'title' ? Array.from(segmenter.segment(run), (s) => s.segment) : [run];
    for (const word of words) {
      const each = syllablesOfWord(word, reading);
      out.push(...each);
      if (each.length > 1) out.push(each.join(''), each.map((s) => s[0]).join(''));
    }
  }
  return out;
}
