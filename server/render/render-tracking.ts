/**
 * What a page render read from the data cache: when the earliest of its answers stops being
 * fresh, and whether any was served stale. A rendered page may be cached only until then, so a
 * cached page is never older than the data it shows is allowed to be.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CacheResult } from '../proxy/content-cache.js';

export interface RenderReads {
  /** Epoch ms at which the first of the answers read stops being fresh. */
  freshUntil: number;
  /** Some answer was stale (or the upstream failed): the page must not be cached. */
  stale: boolean;
}

const current = new AsyncLocalStorage<RenderReads>();

export function trackReads<T>(fn: () => Promise<T>): { reads: RenderReads; result: Promise<T> } {
  const reads: RenderReads = { freshUntil: Infinity, stale: false };
  return { reads, result: current.run(reads, fn) };
}

export function noteRead({ answer, status }: CacheResult): void {
  const reads = current.getStore();
  if (!reads) return;
  reads.freshUntil = Math.min(reads.freshUntil, answer.storedAt + answer.maxAge * 1000);
  if (status === 'STALE') reads.stale = true;
}
