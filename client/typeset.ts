/**
 * Typesetting the content's plain text for the page. Chinese may break between any two
 * characters, and a number between itself and its unit: a line may end in "66" or "18" and the
 * next start with 号 or 层. A card has room for a few lines, and a cut by CSS (line-clamp) falls
 * wherever the line ends, mid-word. These keep a number with its unit, and cut a summary after a
 * clause, so that what shows is whole.
 */

/** Joins a number to the Han character after it (1288 号, 18层): a no-break space for a space, a word joiner where there is none. */
export function keepUnits(text: string): string {
  return text.replace(/(\d) (?=\p{Script=Han})/gu, '$1\u00a0').replace(/(\d)(?=\p{Script=Han})/gu, '$1\u2060');
}

const CLAUSES = /[^，。；！？、：]+[，。；！？、：]?/gu;

/**
 * The text whole when it has at most `max` characters; else its longest run of whole clauses
 * that fits with the ellipsis (……) that marks the cut, or, when even the first clause is longer,
 * that clause's first characters. A cut after a sentence's end (。！？) needs no ellipsis.
 */
export function cutAtClause(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  let kept = '';
  for (const clause of text.match(CLAUSES) ?? []) {
    if ([...kept].length + [...clause].length > max - 2) break;
    kept += clause;
  }
  if (/[。！？]$/.test(kept)) return kept;
  if (!kept) kept = chars.slice(0, max - 2).join('');
  return `${kept.replace(/[，；、：]$/, '')}……`;
}
