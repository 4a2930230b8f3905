/**
 * Ids and page numbers are positive integers written plainly: no sign, no leading zeros, no
 * decimals, no exponent. One value has one spelling, so equal requests share one cache entry.
 */
export const PLAIN_INT = /^[1-9][0-9]{0,9}$/;

/** The number, or undefined when `raw` is not a plain integer within [min, max]. */
export function parsePlainInt(raw: string | null | undefined, min: number, max: number): number | undefined {
  if (raw == null || !PLAIN_INT.test(raw)) return undefined;
  const n = Number(raw);
  return n >= min && n <= max ? n : undefined;
}

/** Largest id: fits a 32-bit signed column. */
export const MAX_ID = 2_147_483_647;
