/**
 * What a part drawn only as it nears the window holds, counted on the server for the height it
 * keeps until then (docs/decisions/070): counts of items and the widths of texts, written into
 * its style as custom properties that its stylesheet turns into a height.
 */
/** Custom properties, by name, each a number. */
export type Measures = Record<`--${string}`, number>;

/**
 * A text's width in em, rounded up: a Chinese character (or any but ASCII) one, an ASCII
 * character (a digit, a Latin letter, a space) 0.6, about the widest of them in the site's fonts.
 */
export function ems(text: string | undefined): number {
  let width = 0;
  for (const char of text ?? '') width += char.codePointAt(0)! < 0x80 ? 0.6 : 1;
  return Math.ceil(width);
}

/** The widest of some texts, in em. */
export const longest = (texts: readonly (string | undefined)[]): number => Math.max(0, ...texts.map(ems));
