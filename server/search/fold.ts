/**
 * Text folded for matching (docs/decisions/034): full-width letters and digits made half-width and
 * compatibility forms made plain (Unicode NFKC), letter case folded, and traditional characters
 * made simplified (OpenCC's Taiwan and Hong Kong tables), so that 白內障, ＯＣＴ and oct find what
 * 白内障 and OCT name. Documents and queries are folded alike, character by character.
 */
import { Converter } from 'opencc-js/t2cn';

const fromTaiwan = Converter({ from: 'tw', to: 'cn' });
const fromHongKong = Converter({ from: 'hk', to: 'cn' });

const HAN = /\p{Script=Han}/u;
/** Each Han character as the tables fold it, learnt once: a table's walk per character is the slow part of indexing. */
const folded = new Map<string, string>();
/**
 * Characters learnt at most: far more than the content uses (the index learns those first), so
 * that queries of rare characters cannot grow it past a megabyte or two; past it, they are folded
 * without being kept.
 */
const FOLDED_MAX = 20_000;

/** A Han character in simplified form (alone, as both content and queries are folded: alike, if not always as in a phrase). */
function simplified(char: string): string {
  let out = folded.get(char);
  if (out === undefined) {
    out = fromHongKong(fromTaiwan(char));
    if (folded.size < FOLDED_MAX) folded.set(char, out);
  }
  return out;
}

/** Folded text, for indexing and for queries. */
export function fold(text: string): string {
  let out = '';
  for (const char of text.normalize('NFKC').toLowerCase()) out += HAN.test(char) ? simplified(char) : char;
  return out;
}

/**
 * Text folded character by character, with where each folded character came from: `from[i]` is
 * the offset in `text` of the character that folded into `folded[i]` (and `from[folded.length]`
 * is `text.length`). Matches found in the folded text are marked in the original with it.
 */
export function foldWithOffsets(text: string): { folded: string; from: number[] } {
  let folded = '';
  const from: number[] = [];
  let offset = 0;
  for (const char of text) {
    const f = fold(char);
    for (let i = 0; i < f.length; i++) from.push(offset);
    folded += f;
    offset += char.length;
  }
  from.push(text.length);
  return { folded, from };
}
