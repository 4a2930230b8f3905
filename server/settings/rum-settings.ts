/** Real-user measurement's settings (docs/decisions/036), part of the one schema in config.ts. */
import { z } from 'zod';
import { int } from './setting-kinds.js';

export const RUM_SETTINGS = {
  RUM_SAMPLE_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(1)
    .describe(
      'share of page views whose Core Web Vitals the browser measures and sends to `POST /rum` (`0.1`: one in ten); `0` turns it off: no measuring code is loaded, no beacon sent, `/rum` answers 404',
    ),
  RUM_BEACONS_PER_MINUTE: int(1, 1_000_000)
    .default(60)
    .describe(
      'beacons taken from one client address per minute (past it, 429 and nothing recorded); raise it where many visitors share an address',
    ),
};
