/**
 * What a page render read from the data cache: when the earliest of its answers stops being
 * fresh, and whether any was served stale. A rendered page may be cached only until then, so a
 * cached page is never older than the data it shows is allowed to be.
 */
import type { CacheResult } from '../proxy/content-cache.js';

export class RenderReads {
  /** Epoch ms at which the first of the answers read stops being fresh. */
  freshUntil = Infinity;
  /** Some answer was stale (or stood in for a failed upstream): the page must not be cached. */
  stale = false;

  note({ answer, status }: CacheResult): void {
    this.freshUntil = Math.min(this.freshUntil, answer.storedAt + answer.maxAge * 1000);
    if (status === 'STALE') this.stale = true;
  }
}
