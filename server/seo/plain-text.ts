/**
 * Text for a page's description and share card: one line of plain text, cut to a length
 * search engines show whole. The content's summaries are plain text already; this only folds
 * their whitespace and shortens them, by whole characters (never half of a surrogate pair or of
 * an emoji), at the end of a sentence where one is near.
 */

/** About what a search result shows of a Chinese description. */
export const DESCRIPTION_MAX = 120;

const segmenter = new Intl.Segmenter('zh-CN', { granularity: 'grapheme' });
/** A sentence ends at Chinese full stops, or at Latin ones followed by a space (not inside `<!--` or a URL). */
const SENTENCE_END = /^[。！？；]$/;
const LATIN_END = /^[.!?;]$/;

/** `text` on one line, at most `max` characters; shortened text ends at a sentence or with an ellipsis. */
export function plainLine(text: string, max = DESCRIPTION_MAX): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(segmenter.segment(line), (s) => s.segment);
  if (chars.length <= max) return line;
  const kept = chars.slice(0, max - 1);
  // A sentence that ends in the last third reads better than a cut mid-phrase.
  for (let i = kept.length - 1; i >= Math.floor(max * (2 / 3)); i--) {
    if (SENTENCE_END.test(kept[i]!) || (LATIN_END.test(kept[i]!) && kept[i + 1] === ' ')) return kept.slice(0, i + 1).join('');
  }
  return `${kept.join('').trimEnd()}…`;
}

/** Parts joined with a separator, the empty ones left out. */
export function joinParts(parts: readonly (string | undefined | null)[], separator: string): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '').join(separator);
}
