/**
 * What a page render read from the data cache, and so how long the rendered page may be reused:
 * until the first of its answers stops being fresh, or, when one was stale, for the short while
 * the cache allows (content-cache.ts). A cached page is never older than its data may be.
 */
import type { CacheResult } from '../proxy/content-cache.js';

export class RenderReads {
  /** Epoch ms until which the page may be reused. */
  reuseUntil = Infinity;

  note(result: CacheResult): void {
    this.reuseUntil = Math.min(this.reuseUntil, result.reuseUntil);
  }
}
