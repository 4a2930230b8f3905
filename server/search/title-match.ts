/**
 * How closely a query names an item (docs/decisions/059): it is the item's whole title, the
 * title's beginning, or words of the title, in characters or in whole pinyin syllables. The index
 * puts the pages a patient comes for (a treatment, a hospital, a doctor) that the query names above
 * the items that merely mention it. A word is what Intl.Segmenter cuts: its splitting of unknown
 * words (飞秒 into 飞|秒) keeps their edges, and a character inside a word (科 of 眼科) does not
 * name the title.
 */
import { fold } from './fold.js';
import { syllablesOf, wordsOf, type Reading } from './terms.js';

/** How closely a query names an item: more is closer; `none` leaves its place to BM25 alone. */
export const MATCH = { none: 0, word: 1, prefix: 2, exact: 3 };

/** A name of an item (its title, or another: a hospital's city), ready to be compared with queries. */
export interface NameForms {
  /** Folded, as written. */
  text: string;
  /** Where in `text` a word begins or the text ends. */
  edges: number[];
  /** Its words joined: what a query's words joined are compared with. */
  bare: string;
  /** Its syllables joined, where each begins, and their initials (spelled items only). */
  pinyin?: { joined: string; edges: number[]; initials: string } | undefined;
}

/** A query as its names are compared with it. */
export interface TypedQuery {
  words: string[];
  bare: string;
  /** Letters only: it may be pinyin. */
  latin: boolean;
}

const segmenter = new Intl.Segmenter('zh-CN', { granularity: 'word' });

/** A query's words, folded, as names are compared with them. */
export function typedQuery(q: string): TypedQuery {
  const words = wordsOf(q);
  const bare = words.join('');
  return { words, bare, latin: /^[a-z]+$/.test(bare) };
}

/** An item's names as queries are compared with them, with their pinyin read as the index reads it when the item is `spelled`. */
export function nameForms(names: readonly [string, Reading][], spelled: boolean): NameForms[] {
  return names.map(([name, reading]) => {
    const text = fold(name);
    const syllables = spelled ? syllablesOf(name, reading) : [];
    return {
      text,
      edges: [...Array.from(segmenter.segment(text), (s) => s.index), text.length],
      bare: wordsOf(name).join(''),
      pinyin:
        syllables.length > 0
          ? { joined: syllables.join(''), edges: edgesOf(syllables), initials: syllables.map((s) => s[0]).join('') }
          : undefined,
    };
  });
}

/** Where each of the parts, joined, begins, and where they end. */
function edgesOf(parts: readonly string[]): number[] {
  const edges = [0];
  for (const part of parts) edges.push(edges.at(-1)! + part.length);
  return edges;
}

/** How closely the query names the item, by the closest of its names. */
export function titleMatch(names: readonly NameForms[], query: TypedQuery): number {
  let best = MATCH.none;
  if (query.bare === '') return best;
  for (const n of names)
    best = Math.max(best, inCharacters(n, query), query.latin && n.pinyin ? inPinyin(n.pinyin, query.bare) : MATCH.none);
  return best;
}

function inCharacters(n: NameForms, { words, bare }: TypedQuery): number {
  if (n.bare === bare) return MATCH.exact;
  // The title's beginning, the last character perhaps still being typed.
  if (n.bare.startsWith(bare)) return MATCH.prefix;
  return words.every((w) => hasWord(n.text, n.edges, w)) ? MATCH.word : MATCH.none;
}

/** Pinyin names an item by whole syllables (chen is 陈, not the start of cheng), or its whole initials (lwq). */
function inPinyin(p: NonNullable<NameForms['pinyin']>, bare: string): number {
  if (p.joined === bare || (bare.length > 1 && p.initials === bare)) return MATCH.exact;
  if (p.joined.startsWith(bare) && p.edges.includes(bare.length)) return MATCH.prefix;
  return hasWord(p.joined, p.edges, bare) ? MATCH.word : MATCH.none;
}

/** Whether `word` occurs in `text` starting and ending at edges. */
function hasWord(text: string, edges: readonly number[], word: string): boolean {
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    if (edges.includes(at) && edges.includes(at + word.length)) return true;
  }
  return false;
}
