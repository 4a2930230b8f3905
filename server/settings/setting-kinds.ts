/** The kinds of value the settings take (config.ts and the settings of each part). */
import { z } from 'zod';

/** An integer within bounds, from its text. */
export const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** A comma-separated list, its entries trimmed and empty ones dropped. */
export const commaList = () =>
  z.string().transform((list) =>
    list
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
